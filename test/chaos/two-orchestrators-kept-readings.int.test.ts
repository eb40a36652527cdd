import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { bearerHeaders } from '@talon/testing';
import { startTurnStack, type Orchestrator, type TurnStack } from './support/turn-stack.js';

interface Envelope {
  ok: boolean;
  data?: any;
  error?: { code: string; details?: any };
}

/**
 * Two orchestrators on one PostgreSQL database, each keeping the session grants a gated call reads and an
 * agent token's session owners while it hears no change of their tables (migration 0014's notices). What one
 * orchestrator changes, the other's next calls read: "approve always" decided on A lets another call of the
 * same tool run on B, whose kept reading had no grant; a session an agent creates on A is usable on B at
 * once. Without the notices B would keep asking for as long as it runs.
 */
describe('chaos: two orchestrators keep readings and hear each other', () => {
  let stack: TurnStack;
  let a: Orchestrator;
  let b: Orchestrator;
  let agentToken: string;

  const rpc = async (at: Orchestrator, token: string, method: string, body: unknown): Promise<Envelope> =>
    (await (
      await fetch(`http://127.0.0.1:${at.httpPort}/v1/rpc/${method}`, {
        method: 'POST',
        headers: bearerHeaders(token),
        body: JSON.stringify(body),
      })
    ).json()) as Envelope;

  beforeAll(async () => {
    stack = await startTurnStack(3_000);
    [a, b] = await Promise.all([stack.startOrchestrator('orch-a'), stack.startOrchestrator('orch-b')]);
    await stack.waitForTool('write_file');
    agentToken = (
      await stack.api.ok<{ token: string }>('tokens.create', { name: 'kept-readings', scope: 'agent' })
    ).token;
  }, 90_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('runs on B the tool always allowed on A, and uses on B the session created on A (3 rounds)', async () => {
    const figures: Array<Record<string, unknown>> = [];
    for (let round = 0; round < 3; round++) {
      const session = await rpc(a, agentToken, 'sessions.create', { title: `round ${round}` });
      expect(session.ok).toBe(true);
      const call = (file: string) => ({
        tool: 'write_file',
        params: { path: `kept-${round}-${file}.txt`, content: file },
        policy: 'agent',
        sessionId: session.data.id,
      });
      // B reads the new session's owner and its grants (none): it asks, then keeps asking.
      const asked = await rpc(b, agentToken, 'tools.call', call('first'));
      expect(asked).toMatchObject({ ok: false, error: { code: 'APPROVAL_REQUIRED' } });
      expect(await rpc(b, agentToken, 'tools.call', call('second'))).toMatchObject({
        ok: false,
        error: { code: 'APPROVAL_REQUIRED' },
      });

      // On A: always allow the tool in this session (a grant). B's next calls of it run.
      const resolved = await rpc(a, stack.nats.bootstrapToken, 'approvals.resolve', {
        id: asked.error!.details.approvalId,
        decision: 'approve_always',
      });
      expect(resolved.ok).toBe(true);
      const approvedAt = performance.now();
      let refusedAfterApproval = 0;
      let ran: Envelope | undefined;
      while (performance.now() - approvedAt < 2_000) {
        const reply = await rpc(b, agentToken, 'tools.call', call('second'));
        if (reply.ok) {
          ran = reply;
          break;
        }
        expect(reply.error?.code).toBe('APPROVAL_REQUIRED');
        refusedAfterApproval++;
        await sleep(5);
      }
      expect(ran?.data).toMatchObject({ tool: 'write_file' });
      expect(await rpc(b, agentToken, 'tools.call', call('third'))).toMatchObject({ ok: true });
      figures.push({
        round,
        refusedAfterApproval,
        ranAfterMs: Math.round(performance.now() - approvedAt),
      });
      // Another agent's token still finds no such session on either orchestrator.
      const stranger = (
        await stack.api.ok<{ token: string }>('tokens.create', { name: `stranger-${round}`, scope: 'agent' })
      ).token;
      for (const at of [a, b])
        expect(await rpc(at, stranger, 'tools.call', call('stranger'))).toMatchObject({
          ok: false,
          error: { code: 'NOT_FOUND' },
        });
    }
    console.log(JSON.stringify({ test: 'two-orchestrators-kept-readings', figures }));
  }, 60_000);
});
