// Tool-call acknowledgements travel on a subject of their own, never as a second reply: every request a
// worker receives gets exactly one reply, which is what keeps nats-server's response permissions cheap
// (see `allowResponses` in nats-permissions.ts). A hand-written worker, as the tool-worker NATS user.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { headers as natsHeaders, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { HEADERS, SUBJECTS, TOOL_ACK_SUBJECT_PATTERN, type ToolCallRequest } from '@talon/contracts';
import { collectNatsErrors, startNatsTestServer, type NatsTestServer } from '@talon/testing';
import { ToolCallRequester } from '../src/tool-call-requester.js';

const encoder = new TextEncoder();
const CALL_SUBJECT = SUBJECTS.toolCall('orchestrator');

function acknowledge(worker: NatsConnection, subject: string, instanceId: string): void {
  const headers = natsHeaders();
  headers.set(HEADERS.ack, instanceId);
  worker.publish(subject, undefined, { headers });
}

/** A call that could run for 20 s: only the failover watch ends it early. */
const longCall = (requester: ToolCallRequester, callId: string) =>
  requester.call({
    domain: 'orchestrator',
    request: { callId, tool: 'slow', params: {}, timeoutMs: 20_000 },
    timeoutMs: 20_000,
  });

const result = (message: Msg) =>
  message.respond(encoder.encode(JSON.stringify({ ok: true, data: { output: 'done', durationMs: 1 } })));

describe('tool-call acknowledgements on their own subject, under Talon authorization', () => {
  let nats: NatsTestServer;
  let orchestrator: NatsConnection;
  let worker: NatsConnection;
  let workerErrors: string[];
  const received: Array<{ request: ToolCallRequest; reply: string | undefined }> = [];
  /** What the hand-written worker does with the next call. */
  let behave: (message: Msg, request: ToolCallRequest) => void = () => undefined;

  beforeAll(async () => {
    nats = await startNatsTestServer();
    [orchestrator, worker] = await Promise.all([nats.connect('orchestrator'), nats.connect('tool-worker')]);
    workerErrors = collectNatsErrors(worker);
    worker.subscribe(CALL_SUBJECT, {
      callback: (_error, message) => {
        const request = message.json<ToolCallRequest>();
        received.push({ request, reply: message.reply });
        behave(message, request);
      },
    });
    // The failover probe of the instance the worker acknowledges as: it holds whatever it is asked about.
    worker.subscribe(SUBJECTS.toolCallCheck('worker-a'), {
      callback: (_error, message) => {
        const { callIds } = message.json<{ callIds: string[] }>();
        message.respond(encoder.encode(JSON.stringify({ ok: true, data: { held: callIds } })));
      },
    });
    await worker.flush();
  }, 30_000);

  afterAll(async () => {
    await Promise.all([orchestrator?.close(), worker?.close()]);
    await nats?.stop();
  });

  it('names a random ack subject per call, apart from the reply subject, which the worker may publish to', async () => {
    const requester = new ToolCallRequester(orchestrator, { probeEveryMs: 50 });
    behave = (message, request) => {
      acknowledge(worker, request.ack!, 'worker-a');
      setTimeout(() => result(message), 100);
    };
    try {
      const calls = await Promise.all(
        ['a', 'b'].map((callId) =>
          requester.call({
            domain: 'orchestrator',
            request: { callId, tool: 'slow', params: {}, timeoutMs: 5_000 },
            timeoutMs: 5_000,
          }),
        ),
      );
      expect(calls.map((call) => call.output)).toEqual(['done', 'done']);
    } finally {
      requester.stop();
    }
    const [first, second] = received.slice(-2);
    for (const { request, reply } of [first!, second!]) {
      expect(request.ack).toMatch(new RegExp(TOOL_ACK_SUBJECT_PATTERN));
      expect(request.ack!.startsWith(`${SUBJECTS.toolAck('')}`)).toBe(true);
      expect(reply).not.toBe(request.ack);
    }
    // One requester, one ack subject; each call its own unguessable token.
    const base = (subject: string) => subject.slice(0, subject.lastIndexOf('.'));
    const token = (subject: string) => subject.slice(subject.lastIndexOf('.') + 1);
    expect(base(first!.request.ack!)).toBe(base(second!.request.ack!));
    expect(token(first!.request.ack!)).not.toBe(token(second!.request.ack!));
    expect(token(first!.request.ack!)).toMatch(/^[0-9a-f-]{36}$/);
    await worker.flush();
    expect(workerErrors).toEqual([]);
  });

  it('fails a call acknowledged by an instance that then vanishes, long before its timeout', async () => {
    const requester = new ToolCallRequester(orchestrator, { probeEveryMs: 50, unresponsiveAfterMs: 400 });
    // Acknowledged as an instance nobody serves the probe subject of: the probe finds no responders.
    behave = (_message, request) => acknowledge(worker, request.ack!, 'vanished-instance');
    const started = Date.now();
    try {
      await expect(longCall(requester, 'lost')).rejects.toMatchObject({ code: 'WORKER_LOST' });
    } finally {
      requester.stop();
    }
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('ignores an acknowledgement for a token it never sent, and one without the instance header', async () => {
    const requester = new ToolCallRequester(orchestrator, {
      probeEveryMs: 50,
      ackTimeoutMs: 300,
    });
    behave = (_message, request) => {
      const forged = `${request.ack!.slice(0, request.ack!.lastIndexOf('.'))}.not-the-token`;
      acknowledge(worker, forged, 'worker-a');
      worker.publish(request.ack!); // no `talon-ack` header
    };
    try {
      await expect(longCall(requester, 'unacked')).rejects.toMatchObject({
        code: 'WORKER_LOST',
        message: expect.stringMatching(/acknowledged/),
      });
    } finally {
      requester.stop();
    }
  });

  it('keeps callers off the ack subjects: only workers (and the orchestrator) may publish there', async () => {
    const caller = await nats.connect('api');
    const errors = collectNatsErrors(caller);
    try {
      caller.publish(`${SUBJECTS.toolAck('requester')}.token`);
      await caller.flush();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(
        errors.some((error) => /Permissions Violation for Publish to "talon\.tools\.v1\.ack\./.test(error)),
      ).toBe(true);
    } finally {
      await caller.close();
    }
  });

  it('refuses a second reply to one request: each request gets exactly one', async () => {
    const errors = collectNatsErrors(worker);
    behave = (message) => {
      result(message);
      result(message);
    };
    const reply = await orchestrator.request(CALL_SUBJECT, encoder.encode('{}'), { timeout: 5_000 });
    expect(reply.json<{ ok: boolean }>().ok).toBe(true);
    await worker.flush();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      errors.some((error) => /Permissions Violation for Publish to "_INBOX_orchestrator\./.test(error)),
    ).toBe(true);
  });
});
