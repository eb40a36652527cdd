import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Routine, RoutineFire } from '@talon/contracts';
import {
  createTestDatabase,
  findFreePort,
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';

describe('talon routines and talon jobs against a running orchestrator', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let orchestrator: ServiceProcess;

  /** Runs the built CLI; resolves with its exit code and output. */
  function talon(...args: string[]): Promise<{ code: number | null; out: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/cli/dist/main.js'), ...args], {
        env: {
          PATH: process.env.PATH ?? '',
          NATS_URL: nats.url,
          NATS_PASSWORD: nats.credentials.api,
          TALON_TOKEN: nats.bootstrapToken,
        },
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('close', (code) => resolve({ code, out }));
    });
  }

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    orchestrator = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(await findFreePort()),
      TALON_GRPC_PORT: String(await findFreePort()),
      TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
  }, 120_000);

  afterAll(async () => {
    await orchestrator?.kill();
    await Promise.all([nats?.stop(), database?.drop()]);
  });

  it('creates from flags, lists with the next fire in the routine timezone, fires, shows history and jobs', async () => {
    const created = await talon(
      'routines',
      'create',
      '--name',
      'incidents',
      '--cron',
      '0 9 * * 1-5',
      '--tz',
      'Asia/Shanghai',
      '--reminder',
      'Summarise the open incidents',
      '--json',
    );
    expect(created.code).toBe(0);
    const routine = (JSON.parse(created.out) as { routine: Routine }).routine;
    const listed = await talon('routines', 'list');
    expect(listed.out).toMatch(/NAME\s+TRIGGER\s+STATE\s+NEXT FIRE/);
    expect(listed.out).toMatch(
      /incidents\s+cron 0 9 \* \* 1-5\s+active\s+in \d+ (hours?|days?|minutes?) \(\d{4}-\d\d-\d\d 09:00:00 Asia\/Shanghai\)/,
    );

    const fired = await talon('routines', 'fire', routine.id);
    expect(fired).toMatchObject({ code: 0, out: expect.stringMatching(/^fired: job [0-9a-f-]{36}/) });
    const jobId = /job ([0-9a-f-]{36})/.exec(fired.out)![1]!;
    await waitUntil(
      async () => (await talon('jobs', 'show', jobId)).out.includes('completed'),
      15_000,
      'job done',
      250,
    );
    const followed = await talon('jobs', 'follow', jobId);
    expect(followed.out).toMatch(/job\.started[\s\S]*job\.finished/);
    const history = await talon('routines', 'history', routine.id, '--json');
    expect((JSON.parse(history.out) as RoutineFire[])[0]).toMatchObject({ source: 'manual', jobId });
    expect((await talon('jobs', 'list')).out).toMatch(new RegExp(`${jobId}\\s+reminder\\s+completed`));

    expect((await talon('routines', 'pause', routine.id)).out).toMatch(/is paused/);
    const refused = await talon('routines', 'fire', routine.id);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/paused; resume it first/);
    const bad = await talon('routines', 'create', '--name', 'x', '--cron', '0 25 * * *', '--reminder', 'r');
    expect(bad).toMatchObject({ code: 1, out: expect.stringMatching(/trigger\.expression\.hour/) });
  }, 120_000); // ten CLI processes one after the other: seconds each on a loaded machine
});
