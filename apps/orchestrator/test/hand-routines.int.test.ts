import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { signWebhook } from '@talon/autonomy';
import type { HandRun, Routine, RoutineFire } from '@talon/contracts';
import { REPO_ROOT, waitUntil, type TalonApiClient } from '@talon/testing';
import { startTalonStack, type TalonStack } from './support/talon-stack.js';

/** OpenFang dialect, OpenFang's interval schedule (seconds). */
const TICKER = (seconds: number) => `id = "ticker"
name = "Ticker"
description = "Notes that time passed."
tools = ["memory_read"]
schedule = { interval = ${seconds} }
[agent]
system_prompt = "Say that time passed."
`;

/** OpenFang's run-once schedule. */
const STARTER = `id = "starter"
name = "Starter"
description = "Runs once when it appears."
tools = ["memory_read"]
schedule = "once"
[agent]
system_prompt = "Say hello."
`;

/** ZCLAW dialect: a 6-field cron in a timezone and a webhook. */
const PINGER = `[hand]
name = "pinger"
description = "Answers pings."
[hand.triggers]
manual = true
schedule = { cron = "0 0 1 1 *", timezone = "Asia/Shanghai" }
webhook = true
[hand.permissions]
tools = ["memory_read"]
`;

/** Manual only: no routine. */
const IDLE = `[hand]
name = "idle"
description = "Runs only when asked."
[hand.triggers]
manual = true
[hand.permissions]
tools = ["memory_read"]
`;

async function postHook(port: number, id: string, body: string, signature: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/hooks/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'talon-signature': signature },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

describe("a hand's triggers become routines that run it, on two orchestrators (real NATS, PostgreSQL)", () => {
  let stack: TalonStack;
  let api: TalonApiClient;
  let handsDir: string;
  let httpPort: number;

  const owned = async (hand: string): Promise<Routine[]> =>
    (await api.ok<{ routines: Routine[] }>('routines.list', { owner: `hand:${hand}` })).routines;

  async function waitForRoutines(hand: string, count: number, what: string): Promise<Routine[]> {
    let routines: Routine[] = [];
    await waitUntil(
      async () => {
        routines = await owned(hand);
        return routines.length === count;
      },
      20_000,
      what,
      200,
    );
    return routines;
  }

  async function completedRunOf(routine: Routine): Promise<HandRun> {
    let run: HandRun | undefined;
    await waitUntil(
      async () => {
        const { fires } = await api.ok<{ fires: RoutineFire[] }>('routines.history', { id: routine.id });
        const done = fires.find((fire) => fire.outcome === 'completed');
        if (!done) return false;
        const { runs } = await api.ok<{ runs: HandRun[] }>('hands.runs.list', {
          hand: (routine.action as { hand: string }).hand,
          state: 'completed',
        });
        run = runs.find((entry) => entry.id === done.jobId);
        return run !== undefined;
      },
      30_000,
      `a completed run of ${routine.name}`,
      250,
    );
    return run!;
  }

  beforeAll(async () => {
    stack = await startTalonStack({
      name: 'talon-hand-routines-',
      model: { script: { loop: true, steps: [{ reply: { text: 'Done.' } }] } },
      hands: {
        ticker: TICKER(2),
        pinger: PINGER,
        idle: IDLE,
        digest: await readFile(join(REPO_ROOT, 'hands', 'digest.HAND.toml'), 'utf8'),
      },
      orchestratorEnv: { TALON_SCHEDULER_TICK_MS: '250', TALON_HAND_ROUTINES_SYNC_MS: '300' },
      // The first start migrates; the second then syncs the same hands beside it.
      orchestrators: ['orch-a', 'orch-b'],
    });
    // The bundled digest names the worker's `time` tool: refused until the worker is up, then synced.
    await stack.startWorker('tool-worker');
    ({ api } = stack);
    handsDir = join(stack.stateDir, 'hands');
    httpPort = stack.orchestrators[0]!.httpPort;
  }, 120_000);

  afterAll(() => stack?.close());

  it('an interval hand gets one routine owned by hand:<id>; it fires and hands.runs.list shows the run', async () => {
    const [routine] = await waitForRoutines('ticker', 1, 'the ticker routine');
    expect(routine).toMatchObject({
      trigger: { kind: 'interval', everyMs: 2000 },
      action: { kind: 'hand', hand: 'ticker' },
      state: 'active',
    });
    const run = await completedRunOf(routine!);
    expect(run).toMatchObject({
      hand: 'ticker',
      requestedBy: `routine:${routine!.id}`,
      result: { hand: 'ticker', content: 'Done.' },
    });
    // Both orchestrators synced many times by now; the derived id let exactly one routine in.
    expect(await owned('ticker')).toHaveLength(1);
  }, 60_000);

  it('the bundled digest gets its daily cron once its tools are offered; a manual-only hand gets none', async () => {
    const [digest] = await waitForRoutines('digest', 1, 'the digest routine');
    expect(digest).toMatchObject({
      trigger: { kind: 'cron', expression: '0 8 * * *', timezone: 'UTC' },
      action: { kind: 'hand', hand: 'digest' },
    });
    expect(digest!.nextFireAt).toMatch(/T08:00:00/);
    expect(await owned('idle')).toEqual([]);
  }, 30_000);

  it('a webhook hand gets a webhook routine whose secret signs a call that runs the hand', async () => {
    const routines = await waitForRoutines('pinger', 2, 'the pinger routines');
    expect(routines.map((routine) => routine.trigger.kind).sort()).toEqual(['cron', 'webhook']);
    expect(routines.find((routine) => routine.trigger.kind === 'cron')!.trigger).toEqual({
      kind: 'cron',
      expression: '0 0 1 1 *',
      timezone: 'Asia/Shanghai',
    });
    const hook = routines.find((routine) => routine.trigger.kind === 'webhook')!;
    const { webhookSecret } = await api.ok<{ webhookSecret: string }>('routines.secret', { id: hook.id });
    const body = JSON.stringify({ ping: 1 });
    const status = await postHook(
      httpPort,
      hook.id,
      body,
      signWebhook(webhookSecret, body, Math.floor(Date.now() / 1000)),
    );
    expect(status).toBe(202);
    const run = await completedRunOf(hook);
    expect(run).toMatchObject({ hand: 'pinger', requestedBy: `routine:${hook.id}` });
  }, 60_000);

  it('a once hand that appears runs once; a changed schedule replaces the routine; a deleted file removes it', async () => {
    await writeFile(join(handsDir, 'starter.HAND.toml'), STARTER);
    const [once] = await waitForRoutines('starter', 1, 'the starter routine');
    expect(once!.trigger.kind).toBe('once');
    await completedRunOf(once!);
    let fires: RoutineFire[] = [];
    await waitUntil(
      async () => {
        fires = (await api.ok<{ fires: RoutineFire[] }>('routines.history', { id: once!.id })).fires;
        return (await api.ok<Routine>('routines.get', { id: once!.id })).state === 'done';
      },
      15_000,
      'the once routine done',
      250,
    );
    expect(fires).toHaveLength(1);
    // Done, it stays (and is not made again) while the file is there.
    expect((await owned('starter')).map((routine) => routine.id)).toEqual([once!.id]);

    const [before] = await owned('ticker');
    await writeFile(join(handsDir, 'ticker.HAND.toml'), TICKER(7));
    await waitUntil(
      async () => {
        const routines = await owned('ticker');
        return routines.length === 1 && routines[0]!.id !== before!.id;
      },
      20_000,
      'the ticker routine replaced',
      200,
    );
    expect((await owned('ticker'))[0]!.trigger).toEqual({ kind: 'interval', everyMs: 7000 });

    // A file that breaks keeps its routine (its history with it); a file that is gone removes it.
    const [kept] = await owned('ticker');
    await writeFile(join(handsDir, 'ticker.HAND.toml'), 'id = "ticker"\nname = [broken');
    await waitUntil(
      async () =>
        (await api.ok<{ rejected: Array<{ path: string }> }>('hands.list', {})).rejected.some((rejection) =>
          rejection.path.endsWith('ticker.HAND.toml'),
        ),
      10_000,
      'the broken ticker refused',
      200,
    );
    await rm(join(handsDir, 'starter.HAND.toml'));
    await waitForRoutines('starter', 0, 'the starter routine removed');
    expect((await owned('ticker')).map((routine) => routine.id)).toEqual([kept!.id]);
    await rm(join(handsDir, 'ticker.HAND.toml'));
    await waitForRoutines('ticker', 0, 'the ticker routine removed');
  }, 90_000);
});
