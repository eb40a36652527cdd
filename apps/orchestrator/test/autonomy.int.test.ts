import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { signWebhook } from '@talon/autonomy';
import type { Job, JobEvent, Routine, RoutineFire, RoutinesCreateReply } from '@talon/contracts';
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
  type TalonApiClient,
  type TalonApiError,
  type TestDatabase,
} from '@talon/testing';
import { startOpenAiCompatibleServer, type LlmTestServer } from '../../../libs/llm/test/support/index.js';

/** Raw HTTP to the webhook route (the one place to add a header if the front door ever needs one here). */
async function postHook(port: number, id: string, body: string, signature?: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/hooks/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'talon-signature': signature } : {}) },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

describe('jobs and routines on two orchestrators (real NATS, PostgreSQL, processes)', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let llm: LlmTestServer;
  let api: TalonApiClient;
  const running = new Map<string, { process: ServiceProcess; httpPort: number }>();

  async function start(instance: string): Promise<void> {
    const httpPort = await findFreePort();
    const process = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_INSTANCE_ID: instance,
      TALON_HTTP_PORT: String(httpPort),
      TALON_GRPC_PORT: String(await findFreePort()),
      TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      TALON_LLM_PROVIDER: 'openai',
      TALON_LLM_BASE_URL: llm.baseURL,
      TALON_LLM_API_KEY: 'test-key',
      TALON_LLM_MODEL: 'test-model',
      TALON_SCHEDULER_TICK_MS: '250',
      TALON_JOB_LEASE_MS: '2000',
      TALON_APPROVAL_TIMEOUT_MS: '120000',
    });
    running.set(instance, { process, httpPort });
  }

  async function kill(instance: string): Promise<void> {
    await running.get(instance)?.process.kill();
    running.delete(instance);
  }

  const anyPort = (): number => [...running.values()][0]!.httpPort;

  async function waitForJob(id: string, states: string[], timeoutMs = 20_000): Promise<Job> {
    let job: Job | undefined;
    await waitUntil(
      async () => {
        // A request sent in the moment after an orchestrator is SIGKILLed can be routed to it before the
        // NATS server has seen its connection close, and is lost: ask again rather than wait 30 s.
        const reply = await api.ok<Job>('jobs.get', { id }, 3_000).catch((error: { code?: string }) => {
          if (error.code === 'TIMEOUT') return undefined;
          throw error;
        });
        if (reply === undefined) return false;
        job = reply;
        return states.includes(job.state);
      },
      timeoutMs,
      `job ${id} in ${states.join('|')}`,
      100,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; last: ${JSON.stringify(job)}`);
    });
    return job!;
  }

  /** Runs the built CLI against this NATS. */
  function talon(...args: string[]): Promise<string> {
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
      child.on('close', () => resolve(out));
    });
  }

  async function errorOf(method: string, payload: unknown): Promise<TalonApiError> {
    const reply = await api.call(method, payload);
    if (reply.ok) throw new Error(`${method} succeeded`);
    return reply.error as TalonApiError;
  }

  beforeAll(async () => {
    [nats, database, llm] = await Promise.all([
      startNatsTestServer(),
      createTestDatabase(),
      startOpenAiCompatibleServer(),
    ]);
    await start('orch-a');
    await start('orch-b');
    api = await connectTalonApi(nats.url);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await Promise.all([...running.values()].map((entry) => entry.process.kill()));
    await Promise.all([nats?.stop(), database?.drop(), llm?.close()]);
  });

  it('refuses bad triggers and actions with typed errors naming the field', async () => {
    const base = { name: 'bad', action: { kind: 'reminder', text: 'x' } };
    const cron = await errorOf('routines.create', {
      ...base,
      trigger: { kind: 'cron', expression: '0 25 * * *' },
    });
    expect(cron).toMatchObject({ code: 'INVALID_TRIGGER', details: { field: 'trigger.expression.hour' } });
    const zone = await errorOf('routines.create', {
      ...base,
      trigger: { kind: 'cron', expression: '0 9 * * 1-5', timezone: 'Asia/Atlantis' },
    });
    expect(zone).toMatchObject({ code: 'INVALID_TRIGGER', details: { field: 'trigger.timezone' } });
    expect(
      await errorOf('routines.create', { ...base, trigger: { kind: 'interval', everyMs: 500 } }),
    ).toMatchObject({
      code: 'INVALID_TRIGGER',
      details: { field: 'trigger.everyMs' },
    });
    expect(
      await errorOf('routines.create', { ...base, trigger: { kind: 'once', at: '2020-01-01T00:00:00Z' } }),
    ).toMatchObject({ code: 'INVALID_TRIGGER', details: { field: 'trigger.at' } });
    expect(
      await errorOf('routines.create', { ...base, trigger: { kind: 'event', pattern: '(a+)+$' } }),
    ).toMatchObject({ code: 'INVALID_TRIGGER', details: { field: 'trigger.pattern' } });
    expect(
      await errorOf('routines.create', {
        name: 'bad',
        trigger: { kind: 'manual' },
        action: { kind: 'tool', tool: 'no_such_tool' },
      }),
    ).toMatchObject({ code: 'UNKNOWN_TOOL' });
    // Hands run here (issue 14): an unknown one is refused by name.
    expect(await errorOf('jobs.create', { action: { kind: 'hand', hand: 'no-such-hand' } })).toMatchObject({
      code: 'NOT_FOUND',
    });
    // A Shanghai weekday routine is accepted and its next fire is a 01:00Z instant.
    const { routine } = await api.ok<RoutinesCreateReply>('routines.create', {
      name: 'incidents',
      trigger: { kind: 'cron', expression: '0 9 * * 1-5', timezone: 'Asia/Shanghai' },
      action: { kind: 'prompt', prompt: 'Summarise the open incidents.' },
    });
    expect(routine.nextFireAt).toMatch(/T01:00:00\.000Z$/);
    await api.ok('routines.delete', { id: routine.id });
  });

  it('runs a prompt job as an autonomous turn and stores its events', async () => {
    llm.enqueue({ text: 'All quiet.' });
    const job = await api.ok<Job>('jobs.create', { action: { kind: 'prompt', prompt: 'Any incidents?' } });
    const done = await waitForJob(job.id, ['completed', 'failed']);
    expect(done).toMatchObject({ state: 'completed', attempt: 1, result: { content: 'All quiet.' } });
    const { events } = await api.ok<{ events: JobEvent[] }>('jobs.events', { id: job.id });
    const types = events.map((event) => event.type);
    expect(types).toEqual(
      expect.arrayContaining(['job.created', 'job.started', 'job.message', 'job.finished']),
    );
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    // Cancelling a finished job is a no-op that returns it.
    expect(await api.ok<Job>('jobs.cancel', { id: job.id })).toMatchObject({ state: 'completed' });
  });

  it('denies a call that needs approval in an autonomous run, with the reason', async () => {
    const { routine } = await api.ok<RoutinesCreateReply>('routines.create', {
      name: 'target',
      trigger: { kind: 'manual' },
      action: { kind: 'reminder', text: 'fired' },
    });
    llm.enqueue(
      { toolCalls: [{ name: 'routine_fire', arguments: { id: routine.id } }] },
      { text: 'Could not.' },
    );
    const job = await api.ok<Job>('jobs.create', { action: { kind: 'prompt', prompt: 'Fire the target.' } });
    await waitForJob(job.id, ['completed']);
    const { events } = await api.ok<{ events: JobEvent[] }>('jobs.events', { id: job.id });
    const refused = events.find((event) => event.type === 'job.tool_call_finished');
    expect(refused).toMatchObject({ ok: false, code: 'POLICY_DENIED' });
    expect(String(refused!.message)).toMatch(/autonomous run/);
    expect(
      (await api.ok<{ fires: RoutineFire[] }>('routines.history', { id: routine.id })).fires,
    ).toHaveLength(0);
    await api.ok('routines.delete', { id: routine.id });
  });

  it('waits for approval (onApproval: "wait") across a SIGKILL of its orchestrator, then resumes', async () => {
    const { routine } = await api.ok<RoutinesCreateReply>('routines.create', {
      name: 'approved-target',
      trigger: { kind: 'manual' },
      action: { kind: 'reminder', text: 'fired after approval' },
    });
    llm.enqueue(
      { toolCalls: [{ name: 'routine_fire', arguments: { id: routine.id } }] },
      { text: 'Fired it.' },
    );
    const job = await api.ok<Job>('jobs.create', {
      action: { kind: 'prompt', prompt: 'Fire the approved target.' },
      policy: { onApproval: 'wait' },
    });
    const waiting = await waitForJob(job.id, ['waiting_approval']);
    const owner = waiting.leaseOwner!;
    await kill(owner);
    await start(owner);
    // The lease expires; whoever takes the job over resumes the turn and waits on the same approval.
    await waitUntil(
      async () => {
        const { events } = await api.ok<{ events: JobEvent[] }>('jobs.events', { id: job.id });
        return events.some((event) => event.type === 'job.taken_over');
      },
      20_000,
      'job taken over',
      200,
    );
    const { approvals } = await api.ok<{ approvals: Array<{ id: string; tool: string }> }>('approvals.list', {
      sessionId: waiting.sessionId,
    });
    expect(approvals).toHaveLength(1);
    // A person answers from the CLI.
    expect(await talon('jobs', 'approvals')).toMatch(
      new RegExp(`${job.id}\\s+${approvals[0]!.id}\\s+routine_fire`),
    );
    expect(await talon('jobs', 'approve', approvals[0]!.id)).toMatch(/routine_fire: approved/);
    const done = await waitForJob(job.id, ['completed', 'failed']);
    expect(done).toMatchObject({ state: 'completed', result: { content: 'Fired it.' } });
    const { fires } = await api.ok<{ fires: RoutineFire[] }>('routines.history', { id: routine.id });
    expect(fires).toHaveLength(1);
  }, 60_000);

  it('accepts a signed webhook once; unsigned, badly signed and replayed calls run nothing', async () => {
    const created = await api.ok<RoutinesCreateReply>('routines.create', {
      name: 'hook',
      trigger: { kind: 'webhook' },
      action: { kind: 'reminder', text: 'hooked' },
      guardrails: { maxConcurrent: 10 },
    });
    const secret = created.webhookSecret!;
    const id = created.routine.id;
    // Stored sealed; operators can read it back, the model never.
    expect(await api.ok('routines.secret', { id })).toEqual({ id, webhookSecret: secret });
    const body = JSON.stringify({ incident: 42 });
    const now = Math.floor(Date.now() / 1000);
    const signature = signWebhook(secret, body, now);
    expect(await postHook(anyPort(), id, body)).toBe(401);
    expect(await postHook(anyPort(), id, body, signWebhook('whsec_wrong', body, now))).toBe(401);
    expect(await postHook(anyPort(), id, body, signWebhook(secret, body, now - 3600))).toBe(401);
    expect(await postHook(anyPort(), id, body, signature)).toBe(202);
    expect(await postHook(anyPort(), id, body, signature)).toBe(401);
    const { fires } = await api.ok<{ fires: RoutineFire[] }>('routines.history', { id });
    expect(fires).toHaveLength(1);
    const job = await waitForJob(fires[0]!.jobId!, ['completed']);
    expect(job.input).toEqual({ incident: 42 });
  });

  it('respects cooldown and max concurrent, and disables a routine after 5 failures', async () => {
    const { routine: cooled } = await api.ok<RoutinesCreateReply>('routines.create', {
      name: 'cooled',
      trigger: { kind: 'manual' },
      action: { kind: 'reminder', text: 'cool' },
      guardrails: { cooldownMs: 60_000, maxConcurrent: 5 },
    });
    expect(await api.ok<RoutineFire>('routines.fire', { id: cooled.id })).toMatchObject({
      outcome: 'enqueued',
    });
    const second = await api.ok<RoutineFire>('routines.fire', { id: cooled.id });
    expect(second).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/^cooldown/) });

    llm.enqueue({ text: 'slow', frameDelayMs: 1500 });
    const { routine: single } = await api.ok<RoutinesCreateReply>('routines.create', {
      name: 'single',
      trigger: { kind: 'manual' },
      action: { kind: 'prompt', prompt: 'Take your time.' },
    });
    const first = await api.ok<RoutineFire>('routines.fire', { id: single.id });
    expect(first.outcome).toBe('enqueued');
    expect(await api.ok<RoutineFire>('routines.fire', { id: single.id })).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringMatching(/^max_concurrent/),
    });
    await waitForJob(first.jobId!, ['completed', 'failed']);

    // job_status of an unknown job fails: five failed jobs in a row disable the routine.
    const { routine: failing } = await api.ok<RoutinesCreateReply>('routines.create', {
      name: 'failing',
      trigger: { kind: 'interval', everyMs: 1000 },
      action: { kind: 'tool', tool: 'job_status', params: { id: '00000000-0000-4000-8000-000000000000' } },
    });
    let state: Routine | undefined;
    await waitUntil(
      async () => {
        state = await api.ok<Routine>('routines.get', { id: failing.id });
        return state.state === 'disabled';
      },
      20_000,
      'routine disabled',
      200,
    );
    expect(state).toMatchObject({ consecutiveFailures: 5 });
    expect(state!.disabledReason).toMatch(/disabled after 5 consecutive failed jobs/);
    const count = (await api.ok<{ fires: RoutineFire[] }>('routines.history', { id: failing.id })).fires
      .length;
    await sleep(1500);
    expect(
      (await api.ok<{ fires: RoutineFire[] }>('routines.history', { id: failing.id })).fires,
    ).toHaveLength(count);
  }, 60_000);

  it('fires event routines on matching chat messages (deduplicated) and system events', async () => {
    const session = await api.ok<{ id: string }>('sessions.create', {});
    const { routine: onDeploy } = await api.ok<RoutinesCreateReply>('routines.create', {
      name: 'on-deploy',
      trigger: { kind: 'event', pattern: '^deploy (\\w+)$', flags: 'i', sessionId: session.id },
      action: { kind: 'reminder', text: 'deploy seen', sessionId: session.id },
      guardrails: { dedupWindowMs: 60_000, maxConcurrent: 5 },
    });
    llm.enqueue({ text: 'Deploying.' }, { text: 'Again.' }, { text: 'Hello.' });
    await api.ok('chat.send', { sessionId: session.id, message: 'Deploy web' });
    await api.ok('chat.send', { sessionId: session.id, message: 'Deploy web' });
    await api.ok('chat.send', { sessionId: session.id, message: 'hello there' });
    let fires: RoutineFire[] = [];
    await waitUntil(
      async () => {
        fires = (await api.ok<{ fires: RoutineFire[] }>('routines.history', { id: onDeploy.id })).fires;
        return fires.length >= 2;
      },
      10_000,
      'two event fires',
      100,
    );
    await sleep(500);
    fires = (await api.ok<{ fires: RoutineFire[] }>('routines.history', { id: onDeploy.id })).fires;
    expect(fires.map((fire) => fire.outcome).sort()).toEqual(['completed', 'skipped']);
    expect(fires.find((fire) => fire.outcome === 'skipped')!.reason).toMatch(/^dedup/);
    const job = await api.ok<Job>('jobs.get', { id: fires.find((fire) => fire.jobId)!.jobId });
    expect(job.input).toEqual({ sessionId: session.id, message: 'Deploy web' });

    const { routine: onIncident } = await api.ok<RoutinesCreateReply>('routines.create', {
      name: 'on-incident',
      trigger: { kind: 'system_event', name: 'incident.opened' },
      action: { kind: 'reminder', text: 'incident' },
    });
    expect(
      (await api.ok<{ fires: RoutineFire[] }>('events.emit', { name: 'incident.closed' })).fires,
    ).toHaveLength(0);
    const emitted = await api.ok<{ fires: RoutineFire[] }>('events.emit', {
      name: 'incident.opened',
      payload: { id: 7 },
    });
    expect(emitted.fires).toEqual([
      expect.objectContaining({ routineId: onIncident.id, outcome: 'enqueued' }),
    ]);
    const incidentJob = await waitForJob(emitted.fires[0]!.jobId!, ['completed']);
    expect(incidentJob.input).toEqual({ event: 'incident.opened', payload: { id: 7 } });
  });

  it('marks a job past its wall time stuck, then cancels it; cancels a running job on request', async () => {
    llm.enqueue({ text: 'never', stallAfterFrames: 1 });
    const slow = await api.ok<Job>('jobs.create', {
      action: { kind: 'prompt', prompt: 'Hang.' },
      limits: { maxWallTimeMs: 3000 },
    });
    // The model must have taken the stalling reply (else a later test would get it).
    await waitUntil(() => llm.pendingReplies() === 0, 10_000, 'model called');
    const stuck = await waitForJob(slow.id, ['cancelled', 'failed', 'completed']);
    expect(stuck).toMatchObject({ state: 'cancelled', error: { code: 'STUCK' } });
    const types = (await api.ok<{ events: JobEvent[] }>('jobs.events', { id: slow.id })).events.map(
      (e) => e.type,
    );
    expect(types).toEqual(expect.arrayContaining(['job.stuck', 'job.finished']));
    // The final state and its event are stored together: a finished job's history ends with it.
    expect(types.at(-1)).toBe('job.finished');

    llm.enqueue({ text: 'never', stallAfterFrames: 1 });
    const hanging = await api.ok<Job>('jobs.create', { action: { kind: 'prompt', prompt: 'Hang too.' } });
    await waitForJob(hanging.id, ['running']);
    await waitUntil(() => llm.pendingReplies() === 0, 10_000, 'model called');
    await api.ok('jobs.cancel', { id: hanging.id });
    const cancelled = await waitForJob(hanging.id, ['cancelled', 'failed', 'completed'], 10_000);
    expect(cancelled).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED' } });
  }, 60_000);

  it("refuses at dispatch a tool outside the job's allowlist, and lets a job outlive its deleted routine", async () => {
    llm.enqueue({ toolCalls: [{ name: 'routine_list', arguments: {} }] }, { text: 'Refused.' });
    const job = await api.ok<Job>('jobs.create', {
      action: { kind: 'prompt', prompt: 'List routines.' },
      policy: { tools: ['list_jobs'] },
    });
    await waitForJob(job.id, ['completed']);
    const refused = (await api.ok<{ events: JobEvent[] }>('jobs.events', { id: job.id })).events.find(
      (event) => event.type === 'job.tool_call_finished',
    );
    expect(refused).toMatchObject({ ok: false, code: 'POLICY_DENIED' });
    expect(String(refused!.message)).toMatch(/not among the tools this job's policy allows/);

    llm.enqueue({ toolCalls: [{ name: 'list_jobs', arguments: {} }] });
    const capped = await api.ok<Job>('jobs.create', {
      action: { kind: 'prompt', prompt: 'List jobs.' },
      limits: { maxToolCalls: 0 },
    });
    expect(await waitForJob(capped.id, ['failed', 'completed'])).toMatchObject({
      state: 'failed',
      error: { code: 'LIMIT_EXCEEDED', message: expect.stringMatching(/maxToolCalls 0/) },
    });
    expect(llm.pendingReplies()).toBe(0);

    llm.enqueue({ text: 'finished anyway', frameDelayMs: 300 });
    const { routine } = await api.ok<RoutinesCreateReply>('routines.create', {
      name: 'short-lived',
      trigger: { kind: 'manual' },
      action: { kind: 'prompt', prompt: 'Work a while.' },
    });
    const fire = await api.ok<RoutineFire>('routines.fire', { id: routine.id });
    await waitForJob(fire.jobId!, ['running']);
    expect(await api.ok('routines.delete', { id: routine.id })).toEqual({ id: routine.id, deleted: true });
    const done = await waitForJob(fire.jobId!, ['completed', 'failed']);
    expect(done).toMatchObject({ state: 'completed', routineId: routine.id });
  });

  it('takes over a job whose orchestrator was SIGKILLed mid-run and fails it with the reason', async () => {
    llm.enqueue({ text: 'never finishes', stallAfterFrames: 1 });
    const job = await api.ok<Job>('jobs.create', { action: { kind: 'prompt', prompt: 'Hang.' } });
    const runningJob = await waitForJob(job.id, ['running']);
    await waitUntil(() => llm.pendingReplies() === 0, 10_000, 'model called');
    await kill(runningJob.leaseOwner!);
    const done = await waitForJob(job.id, ['failed', 'completed'], 20_000);
    expect(done.state).toBe('failed');
    expect(done.error).toMatchObject({ code: 'LEASE_EXPIRED' });
    expect(done.error!.message).toMatch(new RegExp(`${runningJob.leaseOwner} stopped renewing its lease`));
    await start(runningJob.leaseOwner!);
  }, 60_000);

  it('retries a job whose orchestrator died when policy.maxAttempts allows, on another orchestrator', async () => {
    llm.enqueue({ text: 'never finishes', stallAfterFrames: 1 }, { text: 'Second attempt.' });
    const job = await api.ok<Job>('jobs.create', {
      action: { kind: 'prompt', prompt: 'Try twice.' },
      policy: { maxAttempts: 2 },
    });
    const first = await waitForJob(job.id, ['running']);
    await waitUntil(() => llm.pendingReplies() === 1, 10_000, 'first attempt called the model');
    await kill(first.leaseOwner!);
    const done = await waitForJob(job.id, ['completed', 'failed'], 20_000);
    expect(done).toMatchObject({ state: 'completed', attempt: 2, result: { content: 'Second attempt.' } });
    const types = (await api.ok<{ events: JobEvent[] }>('jobs.events', { id: job.id })).events.map(
      (e) => e.type,
    );
    expect(types).toEqual(expect.arrayContaining(['job.retried', 'job.finished']));
    expect(done.sessionId).not.toBe(first.sessionId);
    await start(first.leaseOwner!);
  }, 60_000);

  it('catches up after downtime: skip fires none of the missed slots, once one, all up to the bound', async () => {
    const create = async (catchUp: string) =>
      (
        await api.ok<RoutinesCreateReply>('routines.create', {
          name: `catch-${catchUp}`,
          trigger: { kind: 'interval', everyMs: 1000 },
          action: { kind: 'reminder', text: catchUp },
          guardrails: { catchUp, catchUpMax: 5, misfireGraceMs: 1000, maxConcurrent: 20 },
        })
      ).routine;
    const routines = { skip: await create('skip'), once: await create('once'), all: await create('all') };
    await sleep(2500);
    const instances = [...running.keys()];
    await Promise.all(instances.map((instance) => kill(instance)));
    await sleep(6000);
    await start(instances[0]!);
    await sleep(2000);
    // The fires of the restart's first tick for the routine (one transaction: one claim time); a slot
    // that a loaded machine runs late later is a catch-up of its own and not counted here.
    const caught = async (id: string) => {
      const { fires } = await api.ok<{ fires: RoutineFire[] }>('routines.history', { id, limit: 1000 });
      const late = fires.filter((fire) => fire.source === 'catch_up');
      const first = Math.min(...late.map((fire) => Date.parse(fire.claimedAt)));
      return late.filter((fire) => Date.parse(fire.claimedAt) === first).length;
    };
    expect(await caught(routines.skip.id)).toBe(0);
    expect(await caught(routines.once.id)).toBe(1);
    expect(await caught(routines.all.id)).toBe(5);
    for (const routine of Object.values(routines)) await api.ok('routines.pause', { id: routine.id });
  }, 60_000);
});
