// A large tool result goes through the object store: a worker puts it, the orchestrator takes it back.
// The read is an ordered consumer that JetStream paces with flow-control requests; the orchestrator's NATS
// user answers them on a grant (it has no `allow_responses`), or the read stalls.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { collectNatsErrors, startNatsTestServer, type NatsTestServer } from '@talon/testing';
import { ToolResultStore } from '../src/tool-result-store.js';

describe('tool results through the object store, under Talon authorization', () => {
  let nats: NatsTestServer;
  let orchestrator: NatsConnection;
  let worker: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsTestServer();
    [orchestrator, worker] = await Promise.all([nats.connect('orchestrator'), nats.connect('tool-worker')]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([orchestrator?.close(), worker?.close()]);
    await nats?.stop();
  });

  it('hands a worker’s 24 MiB result to the orchestrator whole, with no permission refused', async () => {
    const errors = collectNatsErrors(orchestrator);
    const result = new Uint8Array(24 * 1024 * 1024).map((_, index) => index % 251);
    const reference = await new ToolResultStore(worker).put(result);
    const taken = await new ToolResultStore(orchestrator).take(reference);
    expect(taken.byteLength).toBe(result.byteLength);
    expect(Buffer.from(taken).equals(Buffer.from(result))).toBe(true);
    await orchestrator.flush();
    expect(errors).toEqual([]);
  }, 60_000);
});
