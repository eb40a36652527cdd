import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { ReplyInbox } from '@talon/client';
import { SUBJECTS } from '@talon/contracts';
import { startNatsTestServer, type NatsTestServer } from '@talon/testing';
import { NatsRequester } from '../src/nats-requester.js';

const encoder = new TextEncoder();

describe('requests through one reply inbox per connection, under Talon authorization', () => {
  let nats: NatsTestServer;
  let orchestrator: NatsConnection;
  let worker: NatsConnection;
  // Subjects the orchestrator may publish to and a tool-worker may subscribe to.
  const echo = SUBJECTS.ping('tool-worker');
  // Replies the worker holds back until a test releases them: a late reply that arrives
  // only after its request has timed out, whatever the machine's load.
  const held: Array<() => void> = [];

  beforeAll(async () => {
    nats = await startNatsTestServer();
    [orchestrator, worker] = await Promise.all([nats.connect('orchestrator'), nats.connect('tool-worker')]);
    worker.subscribe(echo, {
      callback: (_error, message) => {
        const text = message.string();
        if (text === 'silent') return;
        const answer = () => message.respond(encoder.encode(JSON.stringify({ ok: true, data: text })));
        if (text.startsWith('late')) held.push(answer);
        else answer();
      },
    });
    await worker.flush();
  }, 30_000);

  afterAll(async () => {
    await Promise.all([orchestrator?.close(), worker?.close()]);
    await nats?.stop();
  });

  it('gives each of many concurrent requests its own reply, on the inbox its NATS user may read', async () => {
    const inbox = ReplyInbox.of(orchestrator);
    expect(ReplyInbox.of(orchestrator)).toBe(inbox);
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) => inbox.request(echo, encoder.encode(`m${i}`), 5_000)),
    );
    expect(replies.map((reply) => reply.json<{ data: string }>().data)).toEqual(
      Array.from({ length: 200 }, (_, i) => `m${i}`),
    );
    // The reply subjects sit under the user's own inbox prefix (anything else the server refuses).
    expect(replies[0]!.subject.startsWith('_INBOX_orchestrator.')).toBe(true);
  });

  it('times out a request nobody answers, ignores its late reply, and keeps serving the next one', async () => {
    const inbox = ReplyInbox.of(orchestrator);
    await expect(inbox.request(echo, encoder.encode('late-1'), 60)).rejects.toMatchObject({
      name: 'TimeoutError',
      reason: 'timeout',
    });
    // No reply was sent yet, so the timer rejected it. Now the late reply comes: the worker's
    // flush puts it on the server before the orchestrator's flush, which therefore returns after
    // the reply has reached the inbox and been dropped.
    expect(held).toHaveLength(1);
    held.splice(0).forEach((answer) => answer());
    await worker.flush();
    await orchestrator.flush();
    expect((await inbox.request(echo, encoder.encode('next'), 5_000)).json<{ data: string }>().data).toBe(
      'next',
    );
  });

  it('reports no responders at once, as NatsRequester callers expect', async () => {
    const subject = SUBJECTS.ping('wasm-runner'); // nobody listens there
    await expect(
      ReplyInbox.of(orchestrator).request(subject, encoder.encode('x'), 5_000),
    ).rejects.toMatchObject({
      name: 'NoRespondersError',
    });
    await expect(
      new NatsRequester(orchestrator).request(subject, {}, { timeoutMs: 5_000, headers: false }),
    ).rejects.toMatchObject({ code: 'NO_RESPONDERS' });
    expect(await new NatsRequester(orchestrator).request(echo, 'hello', { timeoutMs: 5_000 })).toBe(
      '"hello"',
    );
  });

  it('fails the requests still waiting when the connection closes, and refuses new ones', async () => {
    const connection = await nats.connect('orchestrator');
    const inbox = ReplyInbox.of(connection);
    const waiting = inbox.request(echo, encoder.encode('silent'), 10_000);
    await connection.flush();
    await connection.close();
    await expect(waiting).rejects.toMatchObject({ name: 'ClosedError' });
    await expect(inbox.request(echo, encoder.encode('x'), 1_000)).rejects.toMatchObject({
      name: 'ClosedError',
    });
    // A closed connection takes no new subscription either: NatsRequester sees that error as it is.
    await expect(
      new NatsRequester(connection).request(echo, 'x', { timeoutMs: 1_000 }),
    ).rejects.toMatchObject({ name: 'ClosedConnectionError' });
  });
});
