import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { discoverHands } from './hand-discovery.js';
import { evaluateHandGating } from './hand-gating.js';
import { HandSettingError } from './hand-setting-error.js';
import { parseHandText } from './hand-parser.js';
import { renderHandSystemPrompt, resolveHandSettings } from './hand-settings.js';
import { REMINDER_HAND } from './system-hands.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
/** Tools of Talon's catalog that hands may name: the tool-worker built-ins and the orchestrator's memory tools. */
const CATALOG = [
  'echo',
  'time',
  'json',
  'http',
  'web_fetch',
  'memory_write',
  'memory_read',
  'memory_search',
  'memory_tree',
];
const scratch = mkdtempSync(join(tmpdir(), 'talon-hands-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(scratch, 'dir-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('discoverHands', () => {
  it('lists system hands first, skips broken files with a reason and never throws', async () => {
    const dir = folder({
      'good.HAND.toml': 'id = "good"\ndescription = "Good."\ntools = ["echo"]',
      'broken.HAND.toml': 'id = "broken\n',
      '_reminder.HAND.toml': 'id = "_reminder"\ndescription = "Impostor."',
      'tooly.HAND.toml': 'id = "tooly"\ndescription = "d"\ntools = ["rm_rf"]',
      'notes.txt': 'not a hand',
    });
    const snapshot = await discoverHands({ dir, knownTools: CATALOG });
    expect(snapshot.hands.map((hand) => hand.id)).toEqual(['_reminder', 'good']);
    expect(snapshot.hands[0]).toMatchObject({
      system: true,
      dialect: 'system',
      description: REMINDER_HAND.description,
    });
    expect(snapshot.rejected.map((rejected) => [rejected.path.split('/').pop(), rejected.reason])).toEqual([
      ['_reminder.HAND.toml', 'reserved_id'],
      ['broken.HAND.toml', 'bad_toml'],
      ['tooly.HAND.toml', 'unknown_tool'],
    ]);
  });

  it('keeps ids unique: a file must be named after the id it declares', async () => {
    const dir = folder({
      'a.HAND.toml': '[hand]\nid = "a"\nname = "first"\ndescription = "First."',
      'b.HAND.toml': '[hand]\nid = "a"\nname = "second"\ndescription = "Second."',
    });
    const snapshot = await discoverHands({ dir });
    expect(snapshot.hands.map((hand) => hand.name)).toEqual(['Reminder', 'first']);
    expect(snapshot.rejected[0]).toMatchObject({ reason: 'id_mismatch' });
  });

  it('answers the system hands alone for a missing folder', async () => {
    const snapshot = await discoverHands({ dir: join(scratch, 'absent') });
    expect(snapshot.hands.map((hand) => hand.id)).toEqual(['_reminder']);
    expect(snapshot.rejected).toEqual([]);
  });
});

describe('hand gating', () => {
  const text = `id = "g"
description = "d"
[[requires]]
requirement_type = "binary"
check_value = "talon-test-tool"
[[requires]]
requirement_type = "env_var"
check_value = "TALON_TEST_TOKEN"
[[requires]]
requirement_type = "binary"
check_value = "not-needed-really"
optional = true
`;
  const hand = (() => {
    const result = parseHandText(text, { path: '/h/g.HAND.toml' });
    if (!result.ok) throw new Error(result.rejection.message);
    return result.hand;
  })();

  it('gates a hand out for every missing binary and variable, like skills, ignoring optional ones', () => {
    const gating = evaluateHandGating(hand, { env: { PATH: scratch } });
    expect(gating).toEqual({
      eligible: false,
      reasons: [
        'binary "talon-test-tool" is not on PATH',
        'environment variable TALON_TEST_TOKEN is not set',
      ],
    });
  });

  it('lets it in once the binary is on PATH and the variable is set', () => {
    const bin = mkdtempSync(join(scratch, 'bin-'));
    writeFileSync(join(bin, 'talon-test-tool'), '#!/bin/sh\n');
    chmodSync(join(bin, 'talon-test-tool'), 0o755);
    expect(evaluateHandGating(hand, { env: { PATH: bin, TALON_TEST_TOKEN: 'set' } })).toEqual({
      eligible: true,
      reasons: [],
    });
  });
});

describe('hand settings', () => {
  const result = parseHandText(readFileSync(join(ROOT, 'hands/researcher.HAND.toml'), 'utf8'), {
    path: join(ROOT, 'hands/researcher.HAND.toml'),
  });
  if (!result.ok) throw new Error(result.rejection.message);
  const researcher = result.hand;

  it('fills defaults and renders the chosen values into the system prompt', () => {
    const values = resolveHandSettings(researcher, { question: 'Why is the sky blue?', depth: 'quick' });
    expect(values).toEqual({
      question: 'Why is the sky blue?',
      sources: '',
      depth: 'quick',
      language: 'match',
    });
    const prompt = renderHandSystemPrompt(researcher, values);
    expect(prompt.startsWith(researcher.agent.systemPrompt)).toBe(true);
    expect(prompt).toContain('- Question (question): Why is the sky blue?');
    expect(prompt).toContain('- Research depth (depth): Quick (up to 3 sources)');
    expect(prompt).toContain('- Sources to start from (sources): (not set)');
  });

  it('refuses a value outside the options, of the wrong type, or for an unknown setting', () => {
    expect(() => resolveHandSettings(researcher, { depth: 'bottomless' })).toThrow(HandSettingError);
    expect(() => resolveHandSettings(researcher, { depth: 'bottomless' })).toThrow(
      /must be one of quick, standard, thorough/,
    );
    expect(() => resolveHandSettings(researcher, { question: true })).toThrow(/must be a string/);
    expect(() => resolveHandSettings(researcher, { colour: 'red' })).toThrow(/no setting "colour"/);
  });
});

describe('bundled hands', () => {
  it('load from hands/ with tools that exist, no warnings and no rejections', async () => {
    const snapshot = await discoverHands({ dir: join(ROOT, 'hands'), knownTools: CATALOG });
    expect(snapshot.rejected).toEqual([]);
    expect(snapshot.hands.map((hand) => [hand.id, hand.dialect])).toEqual([
      ['_reminder', 'system'],
      ['collector', 'openfang'],
      ['digest', 'zclaw'],
      ['researcher', 'openfang'],
    ]);
    for (const hand of snapshot.hands) {
      expect(hand.warnings).toEqual([]);
      expect(hand.gating.eligible).toBe(true);
      if (hand.system) continue;
      expect(hand.settings.length).toBeGreaterThan(0);
      expect(hand.metrics.length).toBeGreaterThan(0);
      // Every metric reads a memory key the hand's prompt tells it to write.
      for (const metric of hand.metrics) expect(hand.agent.systemPrompt).toContain(metric.memoryKey);
    }
    expect(snapshot.hands.find((hand) => hand.id === 'digest')?.triggers.schedule).toEqual({
      cron: '0 8 * * *',
      timezone: 'UTC',
    });
  });

  it('have registry entries whose sha256 matches the TOML', () => {
    const entries = readdirSync(join(ROOT, 'registry/hands')).filter((file) => file.endsWith('.json'));
    expect(entries.sort()).toEqual(['collector.json', 'digest.json', 'researcher.json']);
    for (const file of entries) {
      const entry = JSON.parse(readFileSync(join(ROOT, 'registry/hands', file), 'utf8')) as {
        id: string;
        version: string;
        source: { path: string };
        sha256: string;
      };
      const tomlPath = resolve(ROOT, 'registry/hands', entry.source.path);
      const bytes = readFileSync(tomlPath);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(entry.sha256);
      const result = parseHandText(bytes.toString('utf8'), { path: tomlPath, knownTools: CATALOG });
      expect(result.ok && [result.hand.id, result.hand.version]).toEqual([entry.id, entry.version]);
    }
  });
});
