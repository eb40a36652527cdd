import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { HandSchema, type Hand } from '@talon/contracts';
import { Value } from '@sinclair/typebox/value';
import { parseHandText, type HandParseResult } from './hand-parser.js';

const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url));

function parsed(result: HandParseResult): Hand {
  if (!result.ok) throw new Error(`${result.rejection.reason}: ${result.rejection.message}`);
  return result.hand;
}

function rejection(text: string, path = '/hands/x.HAND.toml', knownTools?: string[]) {
  const result = parseHandText(text, { path, ...(knownTools ? { knownTools } : {}) });
  if (result.ok) throw new Error('expected a rejection');
  return result.rejection;
}

const OPENFANG_MINIMAL = 'id = "x"\ndescription = "Does x."\n';
const ZCLAW_MINIMAL = '[hand]\nname = "x"\ndescription = "Does x."\n';

describe('parseHandText, both dialects', () => {
  it('parses the ZCLAW and the OpenFang spelling of one hand into the same Hand', () => {
    const zclawPath = fixture('zclaw/scout.HAND.toml');
    const openfangPath = fixture('openfang/scout.HAND.toml');
    const zclaw = parsed(parseHandText(readFileSync(zclawPath, 'utf8'), { path: zclawPath }));
    const openfang = parsed(parseHandText(readFileSync(openfangPath, 'utf8'), { path: openfangPath }));
    expect(Value.Check(HandSchema, zclaw)).toBe(true);
    expect(Value.Check(HandSchema, openfang)).toBe(true);
    expect(zclaw.dialect).toBe('zclaw');
    expect(openfang.dialect).toBe('openfang');
    const comparable = ({ dialect: _dialect, path: _path, ...rest }: Hand) => rest;
    expect(comparable(zclaw)).toEqual(comparable(openfang));
    expect(openfang).toMatchObject({
      id: 'scout',
      name: 'Scout',
      version: '2.1.0',
      category: 'research',
      requiresApproval: true,
      timeoutMs: 120_000,
      maxConcurrent: 2,
      tools: ['web_fetch', 'memory_write'],
      skills: ['note-taking'],
      mcpServers: ['fetcher'],
      requires: [
        {
          kind: 'binary',
          name: 'curl',
          optional: false,
          install: { linux: 'apt-get install curl', macos: 'brew install curl' },
        },
        { kind: 'api_key', name: 'SCOUT_API_KEY', optional: true },
      ],
      settings: [
        {
          key: 'depth',
          kind: 'select',
          default: 'quick',
          options: [
            { value: 'quick', label: 'Quick' },
            { value: 'deep', label: 'Deep' },
          ],
        },
        { key: 'notify', kind: 'toggle', default: false, options: [] },
      ],
      agent: {
        model: 'gpt-4o-mini',
        temperature: 0.4,
        maxTokens: 2048,
        maxIterations: 12,
        systemPrompt: 'You are Scout. Fetch, read, note.',
      },
      metrics: [{ label: 'Notes', memoryKey: 'hands/scout/notes', format: 'number' }],
      warnings: [],
    });
  });

  it('reads ZCLAW triggers, permissions, rate limit, audit and workflow', () => {
    const hand = parsed(
      parseHandText(
        `[hand]
name = "watch"
description = "Watches."
[hand.triggers]
manual = false
webhook = true
schedule = "*/5 * * * *"
[[hand.triggers.events]]
type = "chat.intent"
pattern = "(?i)watch|盯"
priority = 3
[hand.permissions]
tools = ["web_fetch", "memory_write"]
effects = ["network"]
[hand.rate_limit]
max_requests = 10
window_seconds = 60
[hand.audit]
log_outputs = false
retention_days = 7
[[hand.workflow]]
name = "fetch"
tool = "web_fetch"
prompt = "Fetch the page."
[[hand.workflow]]
name = "store"
tool = "memory_write"
`,
        { path: '/hands/watch.HAND.toml' },
      ),
    );
    expect(hand).toMatchObject({
      triggers: {
        manual: false,
        webhook: true,
        schedule: { cron: '*/5 * * * *' },
        events: [{ type: 'chat.intent', pattern: '(?i)watch|盯', priority: 3 }],
      },
      effects: ['network'],
      rateLimit: { maxRuns: 10, windowSeconds: 60 },
      audit: { logInputs: true, logOutputs: false, retentionDays: 7 },
      workflow: [
        { name: 'fetch', tool: 'web_fetch', prompt: 'Fetch the page.' },
        { name: 'store', tool: 'memory_write' },
      ],
    });
    // Without an agent prompt, the model gets the description and the steps.
    expect(hand.agent.systemPrompt).toBe(
      'Watches.\n\nFollow these steps in order:\n1. fetch (tool web_fetch): Fetch the page.\n2. store (tool memory_write)',
    );
  });

  it('reads every spelling of a ZCLAW schedule trigger', () => {
    const schedule = (triggers: string) =>
      parsed(parseHandText(`${ZCLAW_MINIMAL}[hand.triggers]\n${triggers}`, { path: '/h/x.HAND.toml' }))
        .triggers.schedule;
    expect(schedule('schedule = "0 9 * * 1-5"')).toEqual({ cron: '0 9 * * 1-5' });
    expect(schedule('schedule = true\ncron = "0 9 * * *"\ntimezone = "Asia/Shanghai"')).toEqual({
      cron: '0 9 * * *',
      timezone: 'Asia/Shanghai',
    });
    expect(schedule('schedule = { cron = "*/10 * * * *", timezone = "UTC" }')).toEqual({
      cron: '*/10 * * * *',
      timezone: 'UTC',
    });
    expect(schedule('schedule = false')).toBeUndefined();
    expect(rejection(`${ZCLAW_MINIMAL}[hand.triggers]\nschedule = true`)).toMatchObject({
      reason: 'invalid_trigger',
      message: expect.stringContaining('needs cron'),
    });
  });

  it("reads OpenFang's schedule (cron, interval, once, manual) and webhook, and a ZCLAW interval", () => {
    const triggers = (text: string) => parsed(parseHandText(text, { path: '/h/x.HAND.toml' })).triggers;
    expect(
      triggers(`${OPENFANG_MINIMAL}schedule = { cron = "0 6 * * *", timezone = "Asia/Shanghai" }\n`),
    ).toEqual({
      manual: true,
      schedule: { cron: '0 6 * * *', timezone: 'Asia/Shanghai' },
      webhook: false,
      events: [],
    });
    expect(triggers(`${OPENFANG_MINIMAL}schedule = { interval = 3600 }\nwebhook = true\n`)).toMatchObject({
      intervalSeconds: 3600,
      webhook: true,
    });
    expect(triggers(`${OPENFANG_MINIMAL}schedule = "once"\n`)).toMatchObject({ once: true });
    expect(triggers(`${OPENFANG_MINIMAL}schedule = "manual"\n`)).toEqual({
      manual: true,
      webhook: false,
      events: [],
    });
    expect(triggers(`${ZCLAW_MINIMAL}[hand.triggers]\ninterval = 60\n`)).toMatchObject({
      intervalSeconds: 60,
    });
    expect(triggers(`${ZCLAW_MINIMAL}[hand.triggers]\nschedule = { interval = 30 }\n`).intervalSeconds).toBe(
      30,
    );
    expect(rejection(`${OPENFANG_MINIMAL}schedule = { interval = 0 }\n`)).toMatchObject({
      reason: 'invalid_trigger',
      message: expect.stringContaining('"schedule.interval"'),
    });
    expect(rejection(`${OPENFANG_MINIMAL}schedule = { cron = "* * * * *", interval = 5 }\n`)).toMatchObject({
      reason: 'invalid_trigger',
    });
    expect(rejection(`${OPENFANG_MINIMAL}schedule = "every tuesday"\n`)).toMatchObject({
      reason: 'invalid_trigger',
    });
  });

  it('tolerates unknown fields with a warning each, in both dialects', () => {
    const openfang = parsed(
      parseHandText(`${OPENFANG_MINIMAL}colour = "red"\n[agent]\nsystem_prompt = "p"\nmood = "calm"\n`, {
        path: '/h/x.HAND.toml',
      }),
    );
    expect(openfang.warnings).toEqual([
      'unknown field "agent.mood" ignored',
      'unknown field "colour" ignored',
    ]);
    const zclaw = parsed(
      parseHandText(`${ZCLAW_MINIMAL}flavour = 1\n[hand.triggers]\nsometimes = true\n[extra]\na = 1\n`, {
        path: '/h/x.HAND.toml',
      }),
    );
    expect(zclaw.warnings).toEqual([
      'unknown field "hand.triggers.sometimes" ignored',
      'unknown field "hand.flavour" ignored',
      'unknown field "extra" ignored',
    ]);
  });

  it('lists at most 20 warnings, then how many more', () => {
    const keys = Array.from({ length: 500 }, (_, index) => `k${index} = ${index}`).join('\n');
    const hand = parsed(parseHandText(`${OPENFANG_MINIMAL}${keys}`, { path: '/h/x.HAND.toml' }));
    expect(hand.warnings).toHaveLength(21);
    expect(hand.warnings[20]).toBe('… and 480 more unknown fields ignored');
  });

  it('refuses structures nested too deeply without overflowing the stack', () => {
    expect(rejection(`x = ${'['.repeat(30_000)}${']'.repeat(30_000)}`)).toMatchObject({ reason: 'bad_toml' });
  });

  it('accepts a BOM and plain-string options', () => {
    const hand = parsed(
      parseHandText(
        `\uFEFF${OPENFANG_MINIMAL}[[settings]]\nkey = "mode"\nsetting_type = "select"\noptions = ["a", "b"]\n`,
        { path: '/h/x.HAND.toml' },
      ),
    );
    expect(hand.settings[0]).toEqual({
      key: 'mode',
      label: 'mode',
      kind: 'select',
      options: [
        { value: 'a', label: 'a' },
        { value: 'b', label: 'b' },
      ],
    });
  });
});

describe('parseHandText, bad input', () => {
  it('refuses a TOML syntax error', () => {
    expect(rejection('id = "x\ndescription = 3')).toMatchObject({ reason: 'bad_toml' });
    expect(rejection('[hand\nname = "x"')).toMatchObject({ reason: 'bad_toml' });
  });

  it('refuses a file that is neither dialect', () => {
    expect(rejection('name = "x"\ndescription = "y"')).toMatchObject({ reason: 'unknown_dialect' });
  });

  it('refuses _-prefixed ids, reserved for system hands, in both dialects', () => {
    expect(rejection('id = "_reminder"\ndescription = "Mine."', '/h/_reminder.HAND.toml')).toMatchObject({
      reason: 'reserved_id',
      id: '_reminder',
    });
    expect(rejection('[hand]\nname = "_sneaky"\ndescription = "Mine."')).toMatchObject({
      reason: 'reserved_id',
    });
  });

  it('refuses an invalid id and an id that differs from the file name', () => {
    expect(rejection('id = "Bad Id"\ndescription = "d"')).toMatchObject({ reason: 'invalid_id' });
    expect(rejection(OPENFANG_MINIMAL, '/hands/other.HAND.toml')).toMatchObject({
      reason: 'id_mismatch',
      message: expect.stringContaining('x.HAND.toml'),
    });
  });

  it('refuses a missing or empty required field', () => {
    expect(rejection('id = "x"')).toMatchObject({
      reason: 'missing_field',
      message: expect.stringContaining('"description"'),
    });
    expect(rejection('[hand]\nname = "x"\ndescription = "  "')).toMatchObject({ reason: 'missing_field' });
    expect(rejection('[hand]\ndescription = "d"')).toMatchObject({
      reason: 'missing_field',
      message: expect.stringContaining('hand.name'),
    });
  });

  it('refuses fields of the wrong type with the field named', () => {
    expect(rejection(`${OPENFANG_MINIMAL}tools = "web_fetch"`)).toMatchObject({
      reason: 'invalid_field',
      message: expect.stringContaining('"tools"'),
    });
    expect(rejection(`${ZCLAW_MINIMAL}timeout = -5`)).toMatchObject({
      reason: 'invalid_field',
      message: expect.stringContaining('hand.timeout'),
    });
    expect(rejection(`${OPENFANG_MINIMAL}[agent]\ntemperature = 9`)).toMatchObject({
      reason: 'invalid_field',
    });
    expect(rejection(`${ZCLAW_MINIMAL}[hand.permissions]\neffects = ["teleport"]`)).toMatchObject({
      reason: 'invalid_field',
      message: expect.stringContaining('teleport'),
    });
    expect(
      rejection(`${OPENFANG_MINIMAL}[[requires]]\nrequirement_type = "vibes"\ncheck_value = "x"`),
    ).toMatchObject({ reason: 'invalid_field' });
    expect(
      rejection(`${OPENFANG_MINIMAL}[[requires]]\nrequirement_type = "binary"\ncheck_value = "../../bin/sh"`),
    ).toMatchObject({ reason: 'invalid_field' });
    expect(
      rejection(
        `${OPENFANG_MINIMAL}[dashboard]\n[[dashboard.metrics]]\nlabel = "l"\nmemory_key = "k"\nformat = "emoji"`,
      ),
    ).toMatchObject({ reason: 'invalid_field' });
  });

  it('refuses a tool that is not in the catalog, naming it', () => {
    const text = `${OPENFANG_MINIMAL}tools = ["web_fetch", "launch_rockets", "memory_write"]`;
    expect(rejection(text, '/h/x.HAND.toml', ['web_fetch', 'memory_write'])).toMatchObject({
      reason: 'unknown_tool',
      message: 'hand "x" names unknown tool "launch_rockets"',
    });
    const workflow = `${ZCLAW_MINIMAL}[[hand.workflow]]\nname = "s"\ntool = "shell"`;
    expect(rejection(workflow, '/h/x.HAND.toml', ['web_fetch'])).toMatchObject({
      reason: 'unknown_tool',
      message: expect.stringContaining('"shell"'),
    });
    // Without a catalog the names are not checked here (a run still attenuates at dispatch).
    expect(parseHandText(text, { path: '/h/x.HAND.toml' }).ok).toBe(true);
  });

  it('refuses a workflow step calling a tool outside the hand’s list', () => {
    const text = `${ZCLAW_MINIMAL}[hand.permissions]\ntools = ["memory_read"]\n[[hand.workflow]]\nname = "s"\ntool = "web_fetch"`;
    expect(rejection(text)).toMatchObject({
      reason: 'invalid_field',
      message: expect.stringContaining('web_fetch'),
    });
  });

  it('refuses a setting default outside its options and other broken settings', () => {
    const select = (extra: string) =>
      `${OPENFANG_MINIMAL}[[settings]]\nkey = "depth"\nsetting_type = "select"\n${extra}`;
    expect(rejection(select('options = ["quick", "deep"]\ndefault = "bottomless"'))).toMatchObject({
      reason: 'invalid_setting',
      message: expect.stringContaining('must be one of quick, deep'),
    });
    expect(rejection(select(''))).toMatchObject({
      reason: 'invalid_setting',
      message: expect.stringContaining('at least one option'),
    });
    expect(rejection(select('options = ["a", "a"]'))).toMatchObject({ reason: 'invalid_setting' });
    expect(
      rejection(`${OPENFANG_MINIMAL}[[settings]]\nkey = "on"\nsetting_type = "toggle"\ndefault = "yes"`),
    ).toMatchObject({ reason: 'invalid_setting' });
    expect(rejection(`${OPENFANG_MINIMAL}[[settings]]\nkey = "a"\n[[settings]]\nkey = "a"`)).toMatchObject({
      reason: 'invalid_setting',
      message: expect.stringContaining('twice'),
    });
    expect(rejection(`${OPENFANG_MINIMAL}[[settings]]\nkey = "a"\nsetting_type = "slider"`)).toMatchObject({
      reason: 'invalid_setting',
    });
  });

  it('refuses a bad schedule, timezone or an unsafe event pattern', () => {
    expect(rejection(`${ZCLAW_MINIMAL}[hand.triggers]\nschedule = "every tuesday"`)).toMatchObject({
      reason: 'invalid_trigger',
    });
    expect(
      rejection(`${ZCLAW_MINIMAL}[hand.triggers]\nschedule = { cron = "0 8 * * *", timezone = "Mars/Base" }`),
    ).toMatchObject({ reason: 'invalid_trigger' });
    expect(
      rejection(
        `${ZCLAW_MINIMAL}[hand.triggers]\n[[hand.triggers.events]]\ntype = "chat"\npattern = "(a+)+$"`,
      ),
    ).toMatchObject({ reason: 'invalid_trigger' });
    expect(
      rejection(`${ZCLAW_MINIMAL}[hand.triggers]\n[[hand.triggers.events]]\ntype = "chat"\npattern = "("`),
    ).toMatchObject({ reason: 'invalid_trigger' });
  });

  it('refuses an oversized file before parsing it', () => {
    expect(rejection(`${OPENFANG_MINIMAL}# ${'x'.repeat(70 * 1024)}`)).toMatchObject({ reason: 'too_large' });
  });
});
