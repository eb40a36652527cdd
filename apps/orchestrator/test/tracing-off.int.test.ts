import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { headers as natsHeaders } from '@nats-io/transport-node';
import type { Envelope } from '@talon/contracts';
import {
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';

describe('with tracing off, tool calls carry no NATS headers', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let orchestrator: ServiceProcess;
  let worker: ServiceProcess;
  let client: NatsConnection;
  let wire: NatsConnection;

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    const base = { NATS_URL: nats.url };
    [orchestrator, worker] = await Promise.all([
      startServiceProcess('orchestrator', {
        ...base,
        DATABASE_URL: database.url,
        TALON_HTTP_PORT: String(await findFreePort()),
        TALON_GRPC_PORT: String(await findFreePort()),
      }),
      startServiceProcess('tool-worker', base),
    ]);
    client = await nats.connect('api');
    // A second subscriber outside the queue group sees every call as it travels.
    wire = await nats.connect('tool-worker');
  }, 90_000);

  afterAll(async () => {
    await Promise.all([client?.close(), wire?.close()]);
    await Promise.all([orchestrator, worker].map((service) => service?.stop().catch(() => undefined)));
    await Promise.all([nats?.stop(), database?.drop()]);
  });

  it('sends the call body alone, even when the API caller sent a traceparent', async () => {
    const seen: Msg[] = [];
    const subscription = wire.subscribe('talon.tools.v1.call.orchestrator', {
      callback: (_error, message) => void seen.push(message),
    });
    await wire.flush();
    const headers = natsHeaders();
    headers.set('talon-token', nats.bootstrapToken);
    headers.set('traceparent', `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`);
    const call = async () =>
      (
        await client.request(
          'talon.api.v1.tools.call',
          JSON.stringify({ tool: 'echo', params: { message: 'plain' } }),
          { timeout: 20_000, headers },
        )
      ).json<Envelope<unknown>>();
    await waitUntil(async () => (await call()).ok, 20_000, 'echo callable');
    await waitUntil(() => seen.length > 0, 5_000, 'the call on the wire');
    subscription.unsubscribe();
    for (const message of seen) {
      expect(message.headers).toBeUndefined();
      expect(JSON.parse(new TextDecoder().decode(message.data))).toMatchObject({ tool: 'echo' });
    }
    // No log line claims a trace: nothing was traced.
    for (const line of [...orchestrator.logs, ...worker.logs]) expect(line.trace_id).toBeUndefined();
  });
});
