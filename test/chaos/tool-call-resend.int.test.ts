import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { SUBJECTS, type ToolCallResult } from '@talon/contracts';
import { encodeJson, ToolCallRequester } from '@talon/service-runtime';
import { startNatsTestServer, type NatsTestServer } from '@talon/testing';

/**
 * A call resent after a NATS restart can reach the server before any worker has resubscribed: the
 * requester tries again until a worker is back, instead of failing the call with NO_RESPONDERS.
 */
describe('a tool call resent after a NATS restart', () => {
  let nats: NatsTestServer;
  const connections: NatsConnection[] = [];

  beforeAll(async () => {
    nats = await startNatsTestServer();
  });

  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close().catch(() => undefined)));
    await nats?.stop();
  });

  it('waits for the worker to come back and gets its answer', async () => {
    const caller = await nats.connect('orchestrator');
    connections.push(caller);
    const requester = new ToolCallRequester(caller);
    // The first worker takes the call and dies with the server, without an answer or an acknowledgement.
    const first = await nats.connect('tool-worker');
    let seenByFirst = 0;
    first.subscribe(SUBJECTS.toolCall('orchestrator'), { callback: () => void seenByFirst++ });
    await first.flush();
    const result = requester.call({
      domain: 'orchestrator',
      request: { callId: 'c-resend', tool: 'echo', params: { message: 'across' }, timeoutMs: 20_000 },
      timeoutMs: 25_000,
      idempotent: true,
    });
    const settled = result.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    while (seenByFirst === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await first.close();
    await nats.restart();
    // The caller reconnects (nats.js waits 2 s between attempts) and resends while no worker listens;
    // the new worker comes after that.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const second = await nats.connect('tool-worker');
    connections.push(second);
    let seenBySecond = 0;
    second.subscribe(SUBJECTS.toolCall('orchestrator'), {
      callback: (_error, message) => {
        seenBySecond++;
        const reply: ToolCallResult = { output: 'across', durationMs: 1, instanceId: 'worker-2' };
        message.respond(encodeJson({ ok: true, data: reply }));
      },
    });
    await second.flush();
    const outcome = await settled;
    expect(outcome).toMatchObject({ ok: true, value: { output: 'across', instanceId: 'worker-2' } });
    expect(seenBySecond).toBe(1);
    requester.stop();
  }, 40_000);

  it('sends a call made just after the reconnect again until a worker is back, and fails at once when none comes', async () => {
    // The first case's worker leaves.
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
    const caller = await nats.connect('orchestrator');
    connections.push(caller);
    const requester = new ToolCallRequester(caller);
    // No worker at all, and no reconnect yet: no responders is final.
    await expect(
      requester.call({
        domain: 'orchestrator',
        request: { callId: 'c-none', tool: 'echo', params: {}, timeoutMs: 5_000 },
        timeoutMs: 6_000,
        idempotent: false,
      }),
    ).rejects.toMatchObject({ code: 'NO_RESPONDERS' });
    const reconnected = (async () => {
      for await (const status of caller.status()) if (status.type === 'reconnect') return;
    })();
    await nats.restart();
    await reconnected;
    // A fresh call (a dispatcher's retry, say) while the workers are still away: it waits for one.
    const result = requester.call({
      domain: 'orchestrator',
      request: { callId: 'c-fresh', tool: 'echo', params: {}, timeoutMs: 10_000 },
      timeoutMs: 12_000,
      idempotent: false,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const worker = await nats.connect('tool-worker');
    connections.push(worker);
    worker.subscribe(SUBJECTS.toolCall('orchestrator'), {
      callback: (_error, message) => {
        const reply: ToolCallResult = { output: 'late', durationMs: 1, instanceId: 'worker-3' };
        message.respond(encodeJson({ ok: true, data: reply }));
      },
    });
    await worker.flush();
    await expect(result).resolves.toMatchObject({ output: 'late', instanceId: 'worker-3' });
    requester.stop();
  }, 40_000);
});
