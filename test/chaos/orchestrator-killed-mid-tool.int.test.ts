import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChatSendReply } from '@talon/contracts';
import { bearerHeaders } from '@talon/testing';
import {
  median,
  startTurnStack,
  unansweredCalls,
  type Orchestrator,
  type TurnStack,
} from './support/turn-stack.js';

const RUNS = 3;
const LEASE_MS = 1_500;

/**
 * Chaos: an orchestrator is SIGKILLed while an approved, slow shell call runs. Another orchestrator takes
 * the turn's lease once it expires, records the call as INTERRUPTED (it is not run again), and finishes
 * the turn; the next turn's history is valid for the model API (every tool call has a result). The caller
 * that waited on the dead orchestrator over HTTP sees its connection drop at once. Three runs; prints the
 * takeover time (SIGKILL to the INTERRUPTED result) at p50.
 */
describe('chaos: an orchestrator killed while an approved tool runs', () => {
  let stack: TurnStack;
  let victim: Orchestrator;

  beforeAll(async () => {
    stack = await startTurnStack(LEASE_MS);
    victim = await stack.startOrchestrator('orch-0');
    await stack.waitForTool('shell');
  }, 90_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('finishes the turn elsewhere with an INTERRUPTED result, and the next turn is valid', async () => {
    const takeoverMs: number[] = [];
    let taker = await stack.startOrchestrator('orch-1');
    for (let run = 0; run < RUNS; run++) {
      const { id: sessionId } = await stack.api.ok<{ id: string }>('sessions.create', {
        title: `run ${run}`,
      });
      const recorder = stack.record(sessionId);
      stack.llm.enqueue(
        { toolCalls: [{ name: 'shell', arguments: { command: `sh -c 'sleep 4; touch slow-${run}.txt'` } }] },
        { text: `recovered ${run}` },
        { text: `next turn ${run}` },
      );
      // Sent to the victim's HTTP API, so the turn is the victim's.
      const waiting = fetch(`http://127.0.0.1:${victim.httpPort}/v1/rpc/chat.send`, {
        method: 'POST',
        headers: { ...bearerHeaders(stack.nats.bootstrapToken), 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId, message: `run the slow command ${run}` }),
      }).then(
        async (response) => ({ status: response.status, body: await response.text() }),
        (error: Error) => ({ error: error.message }),
      );
      const asked = await recorder.waitFor(
        (event) => event.type === 'approval_requested',
        'approval_requested',
      );
      await stack.api.ok('approvals.resolve', { id: asked.approvalId, decision: 'approve' });
      const started = await recorder.waitFor(
        (event) => event.type === 'tool_call_started',
        'tool_call_started',
      );
      const killedAt = performance.now();
      await victim.process.kill();
      const interrupted = await recorder.waitFor(
        (event) => event.type === 'tool_call_finished' && event.code === 'INTERRUPTED',
        'the INTERRUPTED result',
      );
      takeoverMs.push(Math.round(interrupted.receivedAt - killedAt));
      expect(interrupted).toMatchObject({ callId: started.callId, ok: false });
      expect(
        await recorder.waitFor((event) => event.type === 'turn_finished', 'turn_finished from the taker'),
      ).toMatchObject({ reason: 'final_answer' });
      expect(recorder.events.filter((event) => event.type === 'turn_started').at(-1)).toMatchObject({
        resumed: true,
      });
      // The caller of the dead orchestrator: its connection broke; the turn's end is on the event stream.
      expect(await waiting).toMatchObject({ error: expect.any(String) });
      expect(await unansweredCalls(stack.db, sessionId)).toEqual([]);
      const { rows } = await stack.db.query<{ content: { message: { content: string } } }>(
        "SELECT content FROM message WHERE session_id = $1 AND role = 'tool'",
        [sessionId],
      );
      expect(JSON.parse(rows[0]!.content.message.content)).toMatchObject({
        error: { code: 'INTERRUPTED', tool: 'shell', idempotent: false },
      });
      await stack.api.ok('audit.list', { limit: 1 }, 30_000); // the outbox is written into the table first
      const audit = await stack.db.query(
        "SELECT kind FROM audit_event WHERE session_id = $1 AND kind IN ('tool.call', 'tool.interrupted')",
        [sessionId],
      );
      expect(audit.rows.map((row) => row.kind)).toEqual(['tool.interrupted']);

      // The next turn sends the whole history to the model server, which refuses a call without a result.
      const next = await stack.api.ok<ChatSendReply>('chat.send', { sessionId, message: 'and now?' }, 30_000);
      expect(next).toMatchObject({ reason: 'final_answer', content: `next turn ${run}` });
      expect(
        stack.llm.requests.filter((request) => JSON.stringify(request.body).includes('INTERRUPTED')).length,
      ).toBeGreaterThanOrEqual(2);
      // The call ran only on the first dispatch (no second tool_call_started anywhere).
      expect(recorder.events.filter((event) => event.type === 'tool_call_started')).toHaveLength(1);
      await recorder.stop();
      victim = taker;
      if (run < RUNS - 1) taker = await stack.startOrchestrator(`orch-${run + 2}`);
    }
    console.log(
      JSON.stringify({
        chaos: 'orchestrator-killed-mid-tool',
        leaseMs: LEASE_MS,
        takeoverMs,
        takeoverP50Ms: median(takeoverMs),
      }),
    );
  }, 180_000);
});
