import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatSendReply } from '@talon/contracts';
import { startTurnStack, unansweredCalls, type Orchestrator, type TurnStack } from './support/turn-stack.js';

const ROUNDS = 3;
const LEASE_MS = 3_000;

/**
 * Chaos: a turn waits for approval on orchestrator A; orchestrator B starts (a scale-out or a rolling
 * restart) with its clock 8 s ahead, and its start-up sweep sees the pending approval. One approval must
 * run the tool exactly once: one shell run, one `tool.call` audit row, one final answer. Three rounds.
 */
describe('chaos: two orchestrators and one pending approval', () => {
  let stack: TurnStack;
  let b: Orchestrator | undefined;

  beforeAll(async () => {
    stack = await startTurnStack(LEASE_MS);
    await stack.startOrchestrator('orch-a');
    await stack.waitForTool('shell');
  }, 90_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('runs the approved tool once per approval, with B started while A holds the turn (3 rounds)', async () => {
    const figures: Array<Record<string, unknown>> = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Only A is up, so the turn lands on A; B starts while A holds it.
      await b?.process.stop();
      const { id: sessionId } = await stack.api.ok<{ id: string }>('sessions.create', {
        title: `round ${round}`,
      });
      const recorder = stack.record(sessionId);
      const file = `round-${round}.txt`;
      stack.llm.enqueue(
        { toolCalls: [{ name: 'shell', arguments: { command: `touch ${file}` } }] },
        { text: `done ${round}` },
      );
      const reply = stack.api.ok<ChatSendReply>(
        'chat.send',
        { sessionId, message: `append to ${file}` },
        60_000,
      );
      const asked = await recorder.waitFor(
        (event) => event.type === 'approval_requested',
        'approval_requested',
      );
      b = await stack.startOrchestrator(`orch-b${round}`, 8_000);
      // B's start-up resume and a few of its sweeps run before the approval.
      await sleep(LEASE_MS / 2);
      const refused = await stack.api.call('chat.send', { sessionId, message: 'a second message meanwhile' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'NAME_CONFLICT' } });
      await stack.api.ok('approvals.resolve', { id: asked.approvalId, decision: 'approve' });
      expect(await reply).toMatchObject({ reason: 'final_answer', content: `done ${round}` });
      await recorder.waitFor((event) => event.type === 'turn_finished', 'turn_finished');
      await sleep(300);
      const result = recorder.events.find((event) => event.type === 'tool_call_finished');
      expect(result).toMatchObject({ ok: true });

      // Every dispatch is audited once by the orchestrator that made it, and announced on the session.
      const dispatched = stack.llm.requests.filter((request) =>
        JSON.stringify(request.body.messages).includes(`"tool_call_id":"${String(result!.callId)}"`),
      ).length;
      await stack.api.ok('audit.list', { limit: 1 }, 30_000); // the outbox is written into the table first
      const audit = await stack.db.query(
        "SELECT count(*)::int AS n FROM audit_event WHERE session_id = $1 AND kind = 'tool.call' AND tool = 'shell'",
        [sessionId],
      );
      const answers = recorder.events.filter((event) => event.type === 'message');
      const finished = recorder.events.filter((event) => event.type === 'turn_finished');
      const starts = recorder.events.filter((event) => event.type === 'tool_call_started');
      figures.push({
        round,
        modelCallsWithTheResult: dispatched,
        auditRows: audit.rows[0].n,
        finalAnswers: answers.length,
        turnFinished: finished.length,
      });
      expect(dispatched).toBe(1);
      expect(audit.rows[0].n).toBe(1);
      expect(answers).toHaveLength(1);
      expect(finished).toHaveLength(1);
      expect(starts).toHaveLength(1);
      expect(await unansweredCalls(stack.db, sessionId)).toEqual([]);
      // The command really ran in the sandbox (a sandbox that cannot start still reports the call ok).
      expect(existsSync(join(stack.workspace, file))).toBe(true);
      await recorder.stop();
    }
    console.log(
      JSON.stringify({ chaos: 'two-orchestrators-one-approval', leaseMs: LEASE_MS, rounds: figures }),
    );
  }, 150_000);
});
