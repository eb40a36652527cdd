import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job, Routine, RoutineFire } from '@talon/contracts';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TalonApiClient,
  type TestDatabase,
} from '@talon/testing';

const SKILL = `---
name: heartbeat
description: Reports that the system is alive.
triggers:
  - schedule: "*/2 * * * * *"
    timezone: Europe/Berlin
---
Say that the system is alive.
`;

describe("a skill's schedule trigger becomes a routine that fires, and goes away with the skill", () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let api: TalonApiClient;
  let stateDir: string;
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    stateDir = await mkdtemp(join(tmpdir(), 'talon-skill-routines-'));
    await mkdir(join(stateDir, 'skills', 'heartbeat'), { recursive: true });
    await writeFile(join(stateDir, 'skills', 'heartbeat', 'SKILL.md'), SKILL);
    const script = join(stateDir, 'script.json');
    await writeFile(script, JSON.stringify({ loop: true, steps: [{ reply: { text: 'Alive.' } }] }));
    const base = { NATS_URL: nats.url, TALON_STATE_DIR: stateDir };
    services.push(
      await startServiceProcess('skill-service', {
        ...base,
        SKILLS_WORKSPACE_DIR: join(stateDir, 'skills'),
        SKILLS_DIR: join(stateDir, 'user-skills'),
        SKILLS_INSTALLED_DIR: join(stateDir, 'installed'),
      }),
    );
    services.push(
      await startServiceProcess('orchestrator', {
        ...base,
        DATABASE_URL: database.url,
        TALON_HTTP_PORT: String(await findFreePort()),
        TALON_GRPC_PORT: String(await findFreePort()),
        TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
        TALON_LLM_PROVIDER: 'scripted',
        TALON_LLM_SCRIPT: script,
        TALON_SKILL_ROUTINES_SYNC_MS: '500',
      }),
    );
    api = await connectTalonApi(nats.url);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await Promise.all(services.map((service) => service.kill()));
    await Promise.all([nats?.stop(), database?.drop()]);
    await rm(stateDir, { recursive: true, force: true });
  });

  it('creates the routine owned by the skill, runs the skill on schedule, removes it with the skill', async () => {
    let routine: Routine | undefined;
    await waitUntil(
      async () => {
        const { routines } = await api.ok<{ routines: Routine[] }>('routines.list', {
          owner: 'skill:heartbeat',
        });
        routine = routines[0];
        return routine !== undefined;
      },
      15_000,
      'skill routine created',
      200,
    );
    expect(routine).toMatchObject({
      trigger: { kind: 'cron', expression: '*/2 * * * * *', timezone: 'Europe/Berlin' },
      action: { kind: 'skill', skill: 'heartbeat' },
      state: 'active',
    });
    let fires: RoutineFire[] = [];
    await waitUntil(
      async () => {
        fires = (await api.ok<{ fires: RoutineFire[] }>('routines.history', { id: routine!.id })).fires;
        return fires.some((fire) => fire.outcome === 'completed');
      },
      20_000,
      'a completed fire',
      250,
    );
    const done = fires.find((fire) => fire.outcome === 'completed')!;
    const job = await api.ok<Job>('jobs.get', { id: done.jobId });
    expect(job).toMatchObject({ state: 'completed', kind: 'skill', result: { content: 'Alive.' } });
    // Slots of a 2-second cron are even seconds.
    expect(new Date(done.slotAt).getUTCSeconds() % 2).toBe(0);

    // A routine naming a skill that does not exist is refused.
    const unknown = await api.call('routines.create', {
      name: 'ghost',
      trigger: { kind: 'manual' },
      action: { kind: 'skill', skill: 'no-such-skill' },
    });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });

    await rm(join(stateDir, 'skills', 'heartbeat'), { recursive: true, force: true });
    await waitUntil(
      async () =>
        (await api.ok<{ routines: Routine[] }>('routines.list', { owner: 'skill:heartbeat' })).routines
          .length === 0,
      15_000,
      'skill routine removed',
      250,
    );
  }, 60_000);
});
