import { describe, expect, it } from '@jest/globals';
import { ScriptedProvider } from '@talon/llm';
import {
  buildRunner,
  MutableToolSource,
  RecordingToolCaller,
  toolDef,
  typesOf,
} from '../test/support/agent-fixtures.js';
import { ApprovalQueue } from './approval-queue.js';
import { InMemoryApprovalStore } from './in-memory-approval-store.js';
import { InMemoryGrantStore } from './in-memory-grant-store.js';
import { InMemorySessionStore } from './in-memory-session-store.js';
import { findInterruptedTurn } from './turn-history.js';

const TOOLS = () => new MutableToolSource([toolDef('echo'), toolDef('write_file', ['write_filesystem'])]);

/** The state a crash leaves while a turn waits for an approval: what the first orchestrator persisted. */
async function crashedWhileWaiting() {
  const sessions = new InMemorySessionStore();
  const approvalStore = new InMemoryApprovalStore();
  const grants = new InMemoryGrantStore();
  await sessions.append('s1', 'turn-1', { role: 'user', content: 'write and echo' });
  await sessions.append('s1', 'turn-1', {
    role: 'assistant',
    content: 'Working.',
    toolCalls: [
      { id: 'e0', name: 'echo', arguments: { text: 'done before' } },
      { id: 'w1', name: 'write_file', arguments: { text: 'a' } },
      { id: 'e1', name: 'echo', arguments: { text: 'after' } },
    ],
  });
  await sessions.append('s1', 'turn-1', { role: 'tool', toolCallId: 'e0', content: 'echo: done before' });
  const before = new ApprovalQueue(approvalStore, grants, { pollIntervalMs: 0 });
  const approval = await before.request({
    sessionId: 's1',
    turnId: 'turn-1',
    callId: 'w1',
    tool: 'write_file',
    params: { text: 'a' },
    reason: 'write asks',
  });
  return { sessions, approvalStore, grants, approval };
}

/** A runner started after the crash on its persisted state, which finishes the turn with FINISH. */
function afterCrash(
  crashed: Awaited<ReturnType<typeof crashedWhileWaiting>>,
  tools: MutableToolSource,
  caller: RecordingToolCaller,
) {
  return buildRunner({
    provider: FINISH(),
    tools,
    caller,
    sessions: crashed.sessions,
    approvalStore: crashed.approvalStore,
    grants: crashed.grants,
  });
}

const FINISH = () =>
  new ScriptedProvider({
    steps: [
      {
        expect: {
          toolResults: [
            { callId: 'e0', contains: 'done before' },
            { callId: 'w1', contains: 'write_file:' },
            { callId: 'e1', contains: 'after' },
          ],
        },
        reply: { text: 'All done.' },
      },
    ],
  });

describe('TurnRunner.resumeTurn', () => {
  it('finds the pending calls of an interrupted turn', async () => {
    const { sessions } = await crashedWhileWaiting();
    const interrupted = findInterruptedTurn(await sessions.load('s1'));
    expect(interrupted).toMatchObject({ turnId: 'turn-1', userMessage: 'write and echo', iterations: 1 });
    expect(interrupted!.pendingCalls.map((call) => call.id)).toEqual(['w1', 'e1']);
    expect(findInterruptedTurn([])).toBeUndefined();
  });

  it('resumes after a restart once the pending approval is resolved, then finishes the turn', async () => {
    const crashed = await crashedWhileWaiting();
    const caller = new RecordingToolCaller();
    const t = afterCrash(crashed, TOOLS(), caller);
    const resumed = t.runner.resumeTurn('s1', { onEvent: t.onEvent });
    setTimeout(() => void t.approvals.resolve(crashed.approval.id, 'approve', 'person:ana'), 20);
    const result = await resumed;
    expect(result).toMatchObject({
      turnId: 'turn-1',
      reason: 'final_answer',
      content: 'All done.',
      iterations: 2,
    });
    expect(caller.calls.map((entry) => entry.call.callId)).toEqual(['w1', 'e1']);
    expect(t.events[0]).toMatchObject({ type: 'turn_started', resumed: true, turnId: 'turn-1' });
    expect(typesOf(t.events).slice(0, 3)).toEqual([
      'turn_started',
      'approval_requested',
      'approval_resolved',
    ]);
    expect(t.events[1]).toMatchObject({ approvalId: crashed.approval.id, callId: 'w1', tool: 'write_file' });
    const roles = (await crashed.sessions.load('s1')).map((stored) => stored.message.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'assistant']);
    expect(await t.runner.resumeTurn('s1')).toBeUndefined();
  });

  it('runs an approved call whose tool the restarted catalog lists only while the person decides', async () => {
    const crashed = await crashedWhileWaiting();
    const caller = new RecordingToolCaller();
    // A restarted orchestrator: the runner that owns write_file has not announced it yet.
    const tools = new MutableToolSource([toolDef('echo')]);
    const t = afterCrash(crashed, tools, caller);
    const resumed = t.runner.resumeTurn('s1', { onEvent: t.onEvent });
    setTimeout(() => {
      tools.add(toolDef('write_file', ['write_filesystem']));
      void t.approvals.resolve(crashed.approval.id, 'approve', 'person:ana');
    }, 20);
    expect(await resumed).toMatchObject({ reason: 'final_answer', content: 'All done.' });
    expect(caller.calls.map((entry) => entry.call.callId)).toEqual(['w1', 'e1']);
  });

  it("waits for the pending calls' tools to be listed before it goes on (a catalog warming up)", async () => {
    const crashed = await crashedWhileWaiting();
    await new ApprovalQueue(crashed.approvalStore, crashed.grants, { pollIntervalMs: 0 }).resolve(
      crashed.approval.id,
      'approve',
      'person:ana',
    );
    const asked: string[][] = [];
    const tools = Object.assign(new MutableToolSource([toolDef('echo')]), {
      // The announcement arrives while the resumed turn waits here.
      whenListed: async (names: readonly string[]) => {
        asked.push([...names]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        tools.add(toolDef('write_file', ['write_filesystem']));
      },
    });
    const caller = new RecordingToolCaller();
    const t = afterCrash(crashed, tools, caller);
    expect(await t.runner.resumeTurn('s1')).toMatchObject({ reason: 'final_answer' });
    expect(asked).toEqual([['write_file', 'echo']]);
    expect(caller.calls.map((entry) => entry.call.callId)).toEqual(['w1', 'e1']);
  });

  it('uses a decision taken while the orchestrator was down, and a deny reaches the model', async () => {
    const crashed = await crashedWhileWaiting();
    await new ApprovalQueue(crashed.approvalStore, crashed.grants, { pollIntervalMs: 0 }).resolve(
      crashed.approval.id,
      'deny',
      'person:bob',
    );
    const provider = new ScriptedProvider({
      steps: [
        {
          expect: { toolResults: [{ callId: 'w1', contains: 'denied by person:bob' }] },
          reply: { text: 'Not written.' },
        },
      ],
    });
    const t = buildRunner({
      provider,
      tools: TOOLS(),
      sessions: crashed.sessions,
      approvalStore: crashed.approvalStore,
      grants: crashed.grants,
    });
    const result = await t.runner.resumeTurn('s1');
    expect(result).toMatchObject({ reason: 'final_answer', content: 'Not written.' });
    expect(t.caller.calls.map((entry) => entry.call.tool)).toEqual(['echo']);
  });

  it('resumes a turn cut off after the tool results, before the next model call', async () => {
    const sessions = new InMemorySessionStore();
    await sessions.append('s1', 't9', { role: 'user', content: 'hi' });
    await sessions.append('s1', 't9', {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'e0', name: 'echo', arguments: {} }],
    });
    await sessions.append('s1', 't9', { role: 'tool', toolCallId: 'e0', content: 'echo: {}' });
    const provider = new ScriptedProvider({
      steps: [{ expect: { toolResults: [{ callId: 'e0', contains: 'echo' }] }, reply: { text: 'Hello.' } }],
    });
    const t = buildRunner({ provider, sessions });
    expect(await t.runner.resumeTurn('s1')).toMatchObject({ turnId: 't9', content: 'Hello.' });
    expect(t.caller.calls).toHaveLength(0);
  });
});
