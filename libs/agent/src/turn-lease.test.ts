import { describe, expect, it } from '@jest/globals';
import { ScriptedProvider } from '@talon/llm';
import {
  activeSkill,
  buildRunner,
  FixedSkillAdvisor,
  MutableToolSource,
  RecordingToolCaller,
  toolDef,
} from '../test/support/agent-fixtures.js';
import { ApprovalQueue } from './approval-queue.js';
import { InMemoryApprovalStore } from './in-memory-approval-store.js';
import { InMemoryGrantStore } from './in-memory-grant-store.js';
import { InMemorySessionStore } from './in-memory-session-store.js';
import { InMemoryToolCallClaimStore } from './in-memory-tool-call-claim-store.js';
import { InMemoryTurnLeaseStore } from './in-memory-turn-lease-store.js';
import { leaseSchedule } from './lease-schedule.js';
import { TurnLeaseKeeper } from './turn-lease-keeper.js';
import { findInterruptedTurn } from './turn-history.js';
import type { AgentEvent } from './agent-events.js';
import type { TurnLeaseAcquisition } from './turn-lease-store.js';

/** One database clock for every owner, moved by hand. */
function databaseClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

/** Every tool call of the log has exactly one result (what the OpenAI and Anthropic APIs require). */
function everyCallAnswered(log: readonly { message: { role: string } }[]): boolean {
  const calls: string[] = [];
  const results: string[] = [];
  for (const { message } of log) {
    const entry = message as { role: string; toolCalls?: { id: string }[]; toolCallId?: string };
    if (entry.role === 'assistant') calls.push(...(entry.toolCalls ?? []).map((call) => call.id));
    if (entry.role === 'tool') results.push(entry.toolCallId!);
  }
  return calls.length === results.length && calls.every((id) => results.includes(id));
}

async function until(predicate: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > 5_000) throw new Error(`not seen: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('lease schedule', () => {
  it('renews every third of the lease and sweeps at most every second', () => {
    expect(leaseSchedule(10_000)).toEqual({ leaseMs: 10_000, renewEveryMs: 3333, sweepEveryMs: 1000 });
    expect(leaseSchedule(900)).toMatchObject({ renewEveryMs: 300, sweepEveryMs: 300 });
    expect(() => leaseSchedule(100)).toThrow(/at least 300 ms/);
    expect(() => leaseSchedule(Number.NaN)).toThrow(/at least/);
  });
});

describe('TurnLeaseKeeper', () => {
  it('gives a session one owner until the lease expires on the database clock, then lets another take it', async () => {
    const clock = databaseClock();
    const store = new InMemoryTurnLeaseStore(clock.now);
    const takeovers: string[] = [];
    // Owner b's own clock runs 8 s ahead: it is never asked, so it cannot make a and b disagree.
    const a = new TurnLeaseKeeper(store, { owner: 'a', leaseMs: 3_000 });
    const b = new TurnLeaseKeeper(store, {
      owner: 'b',
      leaseMs: 3_000,
      monotonicNow: () => performance.now() + 8_000,
      onTakeover: (sessionId, from) => takeovers.push(`${sessionId} from ${from}`),
    });
    const held = await a.hold('s1', 't1');
    expect(held?.fence).toEqual({ owner: 'a', leased: true });
    expect(await b.hold('s1', 't1')).toBeUndefined();
    clock.advance(2_000);
    await a.renewNow();
    clock.advance(2_000);
    expect(await b.hold('s1', 't1')).toBeUndefined();
    expect(held!.lost).toBe(false);

    clock.advance(3_001);
    const taken = await b.hold('s1', 't1');
    expect(taken).toBeDefined();
    expect(takeovers).toEqual(['s1 from a']);
    // The slow owner notices at its next renewal and stops.
    await a.renewNow();
    expect(held!.lost).toBe(true);
    expect(held!.signal.reason).toMatchObject({ code: 'TURN_LEASE_LOST' });
    await held!.release();
    expect(store.ownerOf('s1')).toBe('b');
    await taken!.release();
    expect(store.ownerOf('s1')).toBeUndefined();
    expect(a.held + b.held).toBe(0);
  });

  it('stops a turn whose lease it cannot confirm for a whole lease (the database is unreachable)', async () => {
    const store = new InMemoryTurnLeaseStore();
    let monotonic = 0;
    const keeper = new TurnLeaseKeeper(store, { owner: 'a', leaseMs: 1_000, monotonicNow: () => monotonic });
    const held = await keeper.hold('s1', 't1');
    store.renew = () => Promise.reject(new Error('connection refused'));
    monotonic = 500;
    await keeper.renewNow();
    expect(held!.lost).toBe(false);
    monotonic = 1_000;
    await keeper.renewNow();
    expect(held!.lost).toBe(true);
  });

  it("closes a lease with the turn's last write: no renewal meanwhile, no release after, a failed write still releases", async () => {
    const store = new InMemoryTurnLeaseStore();
    const sessions = new InMemorySessionStore(store);
    const keeper = new TurnLeaseKeeper(store, { owner: 'a', leaseMs: 60_000 });
    const released: string[] = [];
    const release = store.release.bind(store);
    store.release = async (sessionId, owner) => {
      released.push(sessionId);
      return release(sessionId, owner);
    };
    const held = (await keeper.hold('s1', 't1'))!;
    let renewedDuringWrite: ReadonlySet<string> | undefined;
    await held.closeWith(async (fence) => {
      await keeper.renewNow();
      renewedDuringWrite = new Set(keeper.held ? ['s1'] : []);
      return sessions.closeTurn('s1', 't1', { role: 'assistant', content: 'done' }, fence);
    });
    expect(renewedDuringWrite).toEqual(new Set());
    expect(held.lost).toBe(false);
    expect(released).toEqual(['s1']); // by closeTurn itself
    await held.release();
    expect(released).toEqual(['s1']);
    expect((await sessions.load('s1')).map((message) => message.message.content)).toEqual(['done']);
    expect(await new TurnLeaseKeeper(store, { owner: 'b' }).hold('s1', 't2')).toBeDefined();

    const again = (await keeper.hold('s2', 't1'))!;
    await expect(
      again.closeWith(async () => {
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');
    await again.release();
    expect(released).toEqual(['s1', 's2']);
  });

  it('hands its leases over at shutdown: they expire at once for the next owner', async () => {
    const store = new InMemoryTurnLeaseStore();
    const a = new TurnLeaseKeeper(store, { owner: 'a', leaseMs: 60_000 });
    const held = await a.hold('s1', 't1');
    await a.handOver();
    expect(held!.lost).toBe(true);
    expect(await store.listExpired(10)).toEqual(['s1']);
    expect(await new TurnLeaseKeeper(store, { owner: 'b' }).hold('s1', 't1')).toBeDefined();
  });
});

const TOOLS = () =>
  new MutableToolSource([
    toolDef('echo'),
    { ...toolDef('write_file', ['write_filesystem']), idempotent: false },
  ]);

describe('turns with leases and claims', () => {
  it('a second orchestrator cannot start or resume a turn the first one holds', async () => {
    const clock = databaseClock();
    const leases = new InMemoryTurnLeaseStore(clock.now);
    const sessions = new InMemorySessionStore(leases);
    const approvalStore = new InMemoryApprovalStore();
    const grants = new InMemoryGrantStore();
    const claims = new InMemoryToolCallClaimStore(leases);
    const provider = () =>
      new ScriptedProvider({
        steps: [
          { reply: { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { text: 'x' } }] } },
          { reply: { text: 'Written.' } },
        ],
      });
    const common = { tools: TOOLS(), sessions, approvalStore, grants, claims, queue: { pollIntervalMs: 10 } };
    const a = buildRunner({
      ...common,
      provider: provider(),
      leases: new TurnLeaseKeeper(leases, { owner: 'a', leaseMs: 60_000 }),
    });
    const b = buildRunner({
      ...common,
      provider: provider(),
      caller: a.caller,
      leases: new TurnLeaseKeeper(leases, { owner: 'b', leaseMs: 60_000 }),
    });
    const turn = a.runner.run({ sessionId: 's1', message: 'write x', onEvent: a.onEvent });
    await until(() => a.events.some((event) => event.type === 'approval_requested'), 'approval asked');
    await expect(b.runner.resumeTurn('s1')).rejects.toMatchObject({ code: 'NAME_CONFLICT' });
    await expect(b.runner.run({ sessionId: 's1', message: 'another' })).rejects.toMatchObject({
      code: 'NAME_CONFLICT',
    });
    const [pending] = await a.approvals.listPending('s1');
    await b.approvals.resolve(pending!.id, 'approve', 'person:ana');
    expect(await turn).toMatchObject({ reason: 'final_answer', content: 'Written.' });
    expect(a.caller.calls.map((entry) => entry.call.callId)).toEqual(['w1']);
    expect(leases.ownerOf('s1')).toBeUndefined();
  });

  it('asks for the skills while it takes the lease, and a turn refused for the lease leaves nothing unhandled', async () => {
    const steps: string[] = [];
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    /** Takes a lease only once the gate opens. */
    class GatedLeases extends InMemoryTurnLeaseStore {
      override async acquire(
        sessionId: string,
        turnId: string,
        owner: string,
        leaseMs: number,
      ): Promise<TurnLeaseAcquisition> {
        steps.push(`lease asked by ${owner}`);
        await gate;
        const acquisition = await super.acquire(sessionId, turnId, owner, leaseMs);
        steps.push(acquisition.acquired ? `lease taken by ${owner}` : `lease refused to ${owner}`);
        return acquisition;
      }
    }
    /** Answers with a skill, or fails, recording when it was asked. */
    class RecordingAdvisor extends FixedSkillAdvisor {
      fail = false;
      override async select(message: string) {
        steps.push(`select ${message}`);
        if (this.fail) throw new Error('the skill service is away');
        return super.select(message);
      }
    }
    const leases = new GatedLeases();
    const skills = new RecordingAdvisor([activeSkill('release-notes')]);
    const a = buildRunner({
      provider: new ScriptedProvider({
        steps: [{ expect: { systemContains: 'release-notes' }, reply: { text: 'Noted.' } }],
      }),
      skills,
      sessions: new InMemorySessionStore(leases),
      leases: new TurnLeaseKeeper(leases, { owner: 'a', leaseMs: 60_000 }),
    });
    const turn = a.runner.run({ sessionId: 's1', message: 'write the notes', onEvent: a.onEvent });
    await until(() => steps.length === 2, 'the lease and the selection asked for');
    // The selection went out before the lease was taken.
    expect(steps).toEqual(['select write the notes', 'lease asked by a']);
    openGate();
    expect(await turn).toMatchObject({ reason: 'final_answer', content: 'Noted.' });
    expect(steps).toEqual(['select write the notes', 'lease asked by a', 'lease taken by a']);
    const selected = a.events.find((event) => event.type === 'skills_selected');
    expect(selected).toMatchObject({ skills: [{ name: 'release-notes' }] });

    // Another owner holds the session: the turn is refused; its failed selection is not an unhandled rejection.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await leases.acquire('s1', 't-other', 'b', 60_000);
      skills.fail = true;
      const b = buildRunner({
        // Never called: the turn is refused before its first model call.
        provider: new ScriptedProvider({ steps: [{ reply: { text: 'unreachable' } }] }),
        skills,
        sessions: new InMemorySessionStore(leases),
        leases: new TurnLeaseKeeper(leases, { owner: 'c', leaseMs: 60_000 }),
      });
      await expect(b.runner.run({ sessionId: 's1', message: 'again' })).rejects.toMatchObject({
        code: 'NAME_CONFLICT',
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(steps.slice(-3)).toEqual(['select again', 'lease asked by c', 'lease refused to c']);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a slow owner that lost its lease writes nothing more, and the new owner runs the approved call once', async () => {
    const clock = databaseClock();
    const leases = new InMemoryTurnLeaseStore(clock.now);
    const sessions = new InMemorySessionStore(leases);
    const approvalStore = new InMemoryApprovalStore();
    const grants = new InMemoryGrantStore();
    const claims = new InMemoryToolCallClaimStore(leases);
    const caller = new RecordingToolCaller();
    const started: string[] = [];
    caller.hooks.write_file = () => started.push('write_file');
    const keeperA = new TurnLeaseKeeper(leases, { owner: 'a', leaseMs: 60_000 });
    const a = buildRunner({
      provider: new ScriptedProvider({
        steps: [{ reply: { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { text: 'x' } }] } }],
      }),
      tools: TOOLS(),
      caller,
      sessions,
      approvalStore,
      grants,
      claims,
      leases: keeperA,
      queue: { pollIntervalMs: 10 },
    });
    const turnA = a.runner.run({ sessionId: 's1', message: 'write x', onEvent: a.onEvent });
    await until(() => a.events.some((event) => event.type === 'approval_requested'), 'approval asked');

    // a stalls (no renewal) past its lease; b's sweep takes the turn over.
    clock.advance(60_001);
    const bEvents: AgentEvent[] = [];
    const b = buildRunner({
      provider: new ScriptedProvider({
        steps: [
          {
            expect: { toolResults: [{ callId: 'w1', contains: 'write_file:' }] },
            reply: { text: 'Done once.' },
          },
        ],
      }),
      tools: TOOLS(),
      caller,
      sessions,
      approvalStore,
      grants,
      claims,
      leases: new TurnLeaseKeeper(leases, { owner: 'b', leaseMs: 60_000 }),
      queue: { pollIntervalMs: 10 },
    });
    const turnB = b.runner.resumeTurn('s1', { onEvent: (event) => bEvents.push(event) });
    await until(() => bEvents.some((event) => event.type === 'approval_requested'), 'b waits too');
    await keeperA.renewNow();
    const [pending] = await b.approvals.listPending('s1');
    await b.approvals.resolve(pending!.id, 'approve', 'person:ana');

    expect(await turnA).toMatchObject({ reason: 'error', error: { code: 'TURN_LEASE_LOST' } });
    expect(a.events.map((event) => event.type)).not.toContain('turn_finished');
    expect(await turnB).toMatchObject({ reason: 'final_answer', content: 'Done once.' });
    expect(started).toEqual(['write_file']);
    const log = await sessions.load('s1');
    expect(log.map((stored) => stored.message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(everyCallAnswered(log)).toBe(true);
    // The slow owner's late write is refused, not appended.
    await expect(
      sessions.append('s1', 'turn', { role: 'assistant', content: 'late' }, { owner: 'a', leased: true }),
    ).rejects.toMatchObject({ code: 'TURN_LEASE_LOST' });
  });

  it('a call that was running when its owner died gets an INTERRUPTED result and is not run again', async () => {
    const clock = databaseClock();
    const leases = new InMemoryTurnLeaseStore(clock.now);
    const sessions = new InMemorySessionStore(leases);
    const claims = new InMemoryToolCallClaimStore(leases);
    const dead = { owner: 'dead', leased: true } as const;
    await leases.acquire('s1', 'turn-1', 'dead', 5_000);
    await sessions.append('s1', 'turn-1', { role: 'user', content: 'write then echo' }, dead);
    await sessions.append(
      's1',
      'turn-1',
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'e0', name: 'echo', arguments: { text: 'done' } },
          { id: 'w1', name: 'write_file', arguments: { text: 'a' } },
        ],
      },
      dead,
    );
    await sessions.append('s1', 'turn-1', { role: 'tool', toolCallId: 'e0', content: 'echo: done' }, dead);
    await claims.claim('s1', 'turn-1', [{ callId: 'w1', tool: 'write_file' }], dead);
    clock.advance(5_001);
    const t = buildRunner({
      provider: new ScriptedProvider({
        steps: [
          {
            expect: { toolResults: [{ callId: 'w1', contains: '"code":"INTERRUPTED"' }] },
            reply: { text: 'The write may not have happened; please check.' },
          },
        ],
      }),
      tools: TOOLS(),
      sessions,
      claims,
      leases: new TurnLeaseKeeper(leases, { owner: 'b', leaseMs: 5_000 }),
    });
    const result = await t.runner.resumeTurn('s1', { onEvent: t.onEvent });
    expect(result).toMatchObject({ reason: 'final_answer', turnId: 'turn-1' });
    expect(t.caller.calls).toHaveLength(0);
    const finished = t.events.find((event) => event.type === 'tool_call_finished');
    expect(finished).toMatchObject({ callId: 'w1', ok: false, code: 'INTERRUPTED' });
    const log = await sessions.load('s1');
    const result1 = log.find((stored) => (stored.message as { toolCallId?: string }).toolCallId === 'w1');
    expect(JSON.parse((result1!.message as { content: string }).content)).toMatchObject({
      error: { code: 'INTERRUPTED', tool: 'write_file', idempotent: false },
    });
    expect(everyCallAnswered(log)).toBe(true);
    expect(findInterruptedTurn(log)).toBeUndefined();
  });

  it('caps pending approvals per session even when requests race', async () => {
    const queue = new ApprovalQueue(new InMemoryApprovalStore(), new InMemoryGrantStore(), {
      maxPendingPerSession: 2,
      pollIntervalMs: 0,
    });
    const ask = (callId: string) =>
      queue.request({ sessionId: 's1', callId, tool: 'write_file', params: {}, reason: 'asks' });
    const outcomes = await Promise.allSettled(['a', 'b', 'c', 'd'].map(ask));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(2);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({
      reason: { code: 'RATE_LIMITED' },
    });
  });
});
