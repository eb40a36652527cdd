import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HandsListReply, HandSummary, ScheduleParseResult, ToolsListReply } from '@talon/contracts';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
  type TalonApiClient,
} from '@talon/testing';

describe('schedule.parse, hands.list and hands.get through the API', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let api: TalonApiClient;
  const services: ServiceProcess[] = [];
  let stateDir: string;
  let handsDir: string;

  beforeAll(async () => {
    // PostgreSQL starts the orchestrator faster than a fresh embedded database on a loaded machine.
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    stateDir = await mkdtemp(join(tmpdir(), 'talon-hands-state-'));
    handsDir = await mkdtemp(join(tmpdir(), 'talon-hands-'));
    for (const id of ['collector', 'researcher', 'digest'])
      await copyFile(join(REPO_ROOT, 'hands', `${id}.HAND.toml`), join(handsDir, `${id}.HAND.toml`));
    await writeFile(join(handsDir, 'broken.HAND.toml'), 'id = "broken\n');
    await writeFile(
      join(handsDir, 'rocket.HAND.toml'),
      'id = "rocket"\ndescription = "Launches."\ntools = ["launch_rockets"]\n',
    );
    await writeFile(
      join(handsDir, 'gated.HAND.toml'),
      'id = "gated"\ndescription = "Needs a key."\ntools = ["echo"]\n[[requires]]\nrequirement_type = "api_key"\ncheck_value = "TALON_TEST_GATED_KEY"\n',
    );
    const env = {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_STATE_DIR: stateDir,
      TALON_HANDS_DIR: handsDir,
      TALON_TIMEZONE: 'Asia/Shanghai',
      TALON_HTTP_PORT: String(await findFreePort()),
      TALON_GRPC_PORT: String(await findFreePort()),
    };
    services.push(
      ...(await Promise.all([
        startServiceProcess('orchestrator', env),
        startServiceProcess('tool-worker', env),
      ])),
    );
    api = await connectTalonApi(nats.url);
    // The bundled hands name web_fetch and http, which the tool-worker announces.
    await waitUntil(
      async () =>
        (await api.ok<ToolsListReply>('tools.list')).tools.some(
          (tool) => tool.definition.name === 'web_fetch',
        ),
      30_000,
      'web_fetch in the catalog',
    );
  }, 180_000);

  afterAll(async () => {
    await api?.close();
    await Promise.all(services.map((service) => service.stop()));
    await nats?.stop();
    await database?.drop();
    await rm(stateDir, { recursive: true, force: true });
    await rm(handsDir, { recursive: true, force: true });
  });

  it('parses a Chinese reminder in the orchestrator’s timezone', async () => {
    const result = await api.ok<ScheduleParseResult>('schedule.parse', {
      text: '每天早上9点提醒我查房',
      now: '2026-12-01T10:00:00+08:00',
    });
    expect(result).toEqual({
      kind: 'exact',
      family: 'daily',
      schedule: {
        type: 'cron',
        cron: '0 9 * * *',
        timezone: 'Asia/Shanghai',
        nextRunAt: '2026-12-02T09:00:00+08:00',
      },
      description: '每天 09:00',
      confidence: 0.95,
      task: '查房',
      target: 'reminder',
      language: 'zh',
      timezone: 'Asia/Shanghai',
    });
  });

  it('uses the timezone of the call, targets a known hand, and answers every kind', async () => {
    const once = await api.ok<ScheduleParseResult>('schedule.parse', {
      text: 'remind me tomorrow at 3pm to call the bank',
      timezone: 'Europe/Berlin',
      now: '2026-12-01T10:00:00Z',
    });
    expect(once).toMatchObject({
      kind: 'exact',
      schedule: { type: 'once', at: '2026-12-02T15:00:00+01:00' },
    });
    const hand = await api.ok<ScheduleParseResult>('schedule.parse', {
      text: '每天早上8点运行 digest',
      now: '2026-12-01T10:00:00Z',
    });
    expect(hand).toMatchObject({ kind: 'exact', target: 'hand', hand: 'digest' });
    expect(await api.ok<ScheduleParseResult>('schedule.parse', { text: '每天三点提醒我' })).toMatchObject({
      kind: 'ambiguous',
      problem: 'ambiguous_hour',
    });
    expect(await api.ok<ScheduleParseResult>('schedule.parse', { text: '每天每周提醒我' })).toMatchObject({
      kind: 'unclear',
      problem: 'contradictory',
    });
    expect(await api.ok<ScheduleParseResult>('schedule.parse', { text: 'how are you?' })).toMatchObject({
      kind: 'none',
    });
  });

  it('refuses a bad timezone, a bad now and an oversized text with SCHEMA_VIOLATION', async () => {
    for (const payload of [
      { text: '每天9点提醒我', timezone: 'Mars/Olympus' },
      { text: '每天9点提醒我', now: 'soon' },
      { text: 'x'.repeat(9000) },
      { text: '' },
      { text: 'hi', extra: true },
    ]) {
      const reply = await api.call('schedule.parse', payload);
      expect(reply).toMatchObject({ ok: false, error: { code: 'SCHEMA_VIOLATION' } });
    }
  });

  it('lists system and bundled hands with gating, and the refused files with their reasons', async () => {
    const { hands, rejected } = await api.ok<HandsListReply>('hands.list');
    expect(hands.map((hand) => [hand.id, hand.dialect, hand.gating.eligible])).toEqual([
      ['_reminder', 'system', true],
      ['collector', 'openfang', true],
      ['digest', 'zclaw', true],
      ['gated', 'openfang', false],
      ['researcher', 'openfang', true],
    ]);
    expect(hands.find((hand) => hand.id === 'gated')?.gating.reasons).toEqual([
      'environment variable TALON_TEST_GATED_KEY is not set',
    ]);
    expect(rejected.map((rejection) => [rejection.path.split('/').pop(), rejection.reason])).toEqual([
      ['broken.HAND.toml', 'bad_toml'],
      ['rocket.HAND.toml', 'unknown_tool'],
    ]);
    expect(rejected[1]!.message).toContain('"launch_rockets"');
  });

  it('gets one hand, and answers NOT_FOUND for an unknown or refused id', async () => {
    const digest = await api.ok<HandSummary>('hands.get', { id: 'digest' });
    expect(digest).toMatchObject({
      id: 'digest',
      triggers: { schedule: { cron: '0 8 * * *' } },
      gating: { eligible: true },
    });
    expect(await api.ok<HandSummary>('hands.get', { id: '_reminder' })).toMatchObject({ system: true });
    expect(await api.call('hands.get', { id: 'nobody' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    const refused = await api.call('hands.get', { id: 'rocket' });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: expect.stringContaining('unknown_tool') },
    });
    expect(await api.call('hands.get', { id: '../etc' })).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
  });

  it('is what `talon hands` shows, as a table and as JSON', async () => {
    const cli = (args: string[]) =>
      promisify(execFile)(process.execPath, [join(REPO_ROOT, 'apps/cli/dist/main.js'), 'hands', ...args], {
        env: {
          PATH: process.env.PATH ?? '',
          NATS_URL: nats.url,
          NATS_PASSWORD: nats.credentials.api,
          TALON_TOKEN: nats.bootstrapToken,
        },
      });
    const table = (await cli([])).stdout;
    expect(table).toMatch(/^ID\s+DIALECT/);
    expect(table).toMatch(/\ndigest\s+zclaw\s+1\.0\.0\s+yes/);
    expect(table).toContain('gated is not ready: environment variable TALON_TEST_GATED_KEY is not set');
    expect(table).toContain('rocket.HAND.toml: unknown_tool');
    const listed = JSON.parse((await cli(['--json'])).stdout) as HandsListReply;
    expect(listed).toEqual(await api.ok<HandsListReply>('hands.list'));
    expect((await cli(['show', 'researcher'])).stdout).toContain(
      'setting:   depth (select) [quick | standard | thorough]',
    );
    await expect(cli(['show', 'nobody'])).rejects.toMatchObject({
      code: 1,
      stdout: expect.stringContaining('No hand "nobody"'),
    });
  });
});
