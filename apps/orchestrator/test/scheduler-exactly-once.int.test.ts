import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JobEvent, Routine, RoutineFire } from '@talon/contracts';
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

const ROUTINES = 20;
const INTERVAL_MS = 1000;
const RUN_MS = 14_000;

describe('the scheduler fires each slot exactly once across 3 orchestrators', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let api: TalonApiClient;
  const orchestrators: ServiceProcess[] = [];

  async function startOrchestrator(instance: string): Promise<ServiceProcess> {
    return startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_INSTANCE_ID: instance,
      TALON_HTTP_PORT: String(await findFreePort()),
      TALON_GRPC_PORT: String(await findFreePort()),
      TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      TALON_SCHEDULER_TICK_MS: '250',
      // Long idle waits, so a first slot that waited for one (no wake) would be seconds late.
      TALON_SCHEDULER_IDLE_TICK_MS: '10000',
      TALON_JOB_LEASE_MS: '3000',
    });
  }

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    // The first start migrates; the others then start side by side.
    orchestrators.push(await startOrchestrator('orch-a'));
    orchestrators.push(...(await Promise.all([startOrchestrator('orch-b'), startOrchestrator('orch-c')])));
    api = await connectTalonApi(nats.url);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await Promise.all(orchestrators.map((orchestrator) => orchestrator.kill()));
    await Promise.all([nats?.stop(), database?.drop()]);
  });

  it('every slot of 20 one-second routines once, none missed, while one orchestrator is killed halfway', async () => {
    const routines: Routine[] = [];
    for (let index = 0; index < ROUTINES; index++) {
      const { routine } = await api.ok<{ routine: Routine }>('routines.create', {
        name: `tick-${index}`,
        trigger: { kind: 'interval', everyMs: INTERVAL_MS },
        action: { kind: 'reminder', text: `tick ${index}` },
        guardrails: { maxConcurrent: 5 },
      });
      routines.push(routine);
    }
    await sleep(RUN_MS / 2);
    await orchestrators[0]!.kill();
    const killedAt = Date.now();
    await sleep(RUN_MS / 2);
    for (const routine of routines) await api.ok('routines.pause', { id: routine.id });
    const pausedAt = Date.now();

    const claimants = new Map<string, number>();
    let total = 0;
    for (const routine of routines) {
      const { fires } = await api.ok<{ fires: RoutineFire[] }>('routines.history', {
        id: routine.id,
        limit: 1000,
      });
      const slots = fires.map((fire) => Date.parse(fire.slotAt)).sort((a, b) => a - b);
      // Exactly once: no slot twice.
      expect(new Set(slots).size).toBe(slots.length);
      // None missed: consecutive slots one interval apart, from the first slot up to the pause.
      const first = Date.parse(routine.createdAt) + INTERVAL_MS;
      expect(slots[0]).toBe(first);
      for (let index = 1; index < slots.length; index++)
        expect(slots[index]! - slots[index - 1]!).toBe(INTERVAL_MS);
      expect(slots.at(-1)!).toBeGreaterThan(pausedAt - 3 * INTERVAL_MS);
      for (const fire of fires) {
        expect(fire.outcome).not.toBe('skipped');
        claimants.set(fire.claimedBy, (claimants.get(fire.claimedBy) ?? 0) + 1);
      }
      // After the kill, the survivors claimed every slot.
      const late = fires.filter((fire) => Date.parse(fire.slotAt) > killedAt + 500);
      expect(late.every((fire) => fire.claimedBy !== 'orch-a')).toBe(true);
      total += fires.length;
    }
    expect(total).toBeGreaterThanOrEqual(ROUTINES * (RUN_MS / INTERVAL_MS - 3));
    expect([...claimants.keys()].sort()).toEqual(expect.arrayContaining(['orch-b', 'orch-c']));
    process.stdout.write(
      `exactly-once: ${total} fires, by claimant ${JSON.stringify(Object.fromEntries(claimants))}\n`,
    );

    // Every job of those fires ends (orch-a's in-flight ones are taken over after their lease).
    await waitUntil(
      async () => {
        const { jobs } = await api.ok<{ jobs: Array<{ state: string }> }>('jobs.list', { limit: 500 });
        return jobs.every((job) => job.state === 'completed' || job.state === 'failed');
      },
      20_000,
      'every job finished',
      250,
    );
    // Jobs ending together share one statement with their events: each job's history still reads in
    // order, without a gap, ending with `job.finished`.
    const { jobs } = await api.ok<{ jobs: Array<{ id: string; state: string }> }>('jobs.list', {
      state: 'completed',
      limit: 40,
    });
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      const { events } = await api.ok<{ events: JobEvent[] }>('jobs.events', { id: job.id });
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      expect(events.map((event) => event.type)).toEqual(
        expect.arrayContaining(['job.started', 'job.reminder', 'job.finished']),
      );
      expect(events.at(-1)!.type).toBe('job.finished');
    }
  }, 90_000);

  it('idles between slots, yet fires the first slot of a routine created meanwhile on time', async () => {
    // Every routine so far is paused: the schedulers wait up to their idle bound (10 s here) between ticks.
    // The orchestrator that creates a routine wakes its own scheduler, which then waits for the slot.
    const lateness: number[] = [];
    const jobLateness: number[] = [];
    for (let index = 0; index < 4; index++) {
      // Past the tick the last fire planned (1 s): every scheduler is in an idle wait.
      await sleep(1_500);
      const { routine } = await api.ok<{ routine: Routine }>('routines.create', {
        name: `first-slot-${index}`,
        trigger: { kind: 'interval', everyMs: INTERVAL_MS },
        action: { kind: 'reminder', text: `first ${index}` },
      });
      let first: RoutineFire | undefined;
      await waitUntil(
        async () => {
          const { fires } = await api.ok<{ fires: RoutineFire[] }>('routines.history', { id: routine.id });
          first = fires.find((fire) => fire.source === 'schedule');
          return first !== undefined;
        },
        10_000,
        'the first fire',
        50,
      );
      await api.ok('routines.pause', { id: routine.id });
      lateness.push(Date.parse(first!.claimedAt) - Date.parse(first!.slotAt));
      // Its job is claimed at once too: the fire wakes every job runner, idle ones included.
      let started: string | undefined;
      await waitUntil(
        async () => {
          started = (await api.ok<{ startedAt?: string }>('jobs.get', { id: first!.jobId })).startedAt;
          return started !== undefined;
        },
        15_000,
        'the first job started',
        50,
      );
      jobLateness.push(Date.parse(started!) - Date.parse(first!.claimedAt));
    }
    process.stdout.write(
      `first-slot lateness ms: ${lateness.join(', ')}; job start ms: ${jobLateness.join(', ')}\n`,
    );
    // Without the wakes, a first slot waits for some scheduler's idle tick (up to 10 s here) and its job
    // for some runner's next poll (idle runners still sweep leases every second).
    expect(Math.max(...lateness)).toBeLessThan(400);
    expect(Math.max(...jobLateness)).toBeLessThan(250);
  }, 60_000);
});
