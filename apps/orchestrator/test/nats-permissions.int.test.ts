import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  collectNatsErrors,
  createTestDatabase,
  findFreePort,
  natsTokenHeaders,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('the private bus: per-service NATS users from one permission table', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let orchestrator: ServiceProcess;
  let spy: NatsConnection;
  const seen: string[] = [];

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    orchestrator = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(await findFreePort()),
      TALON_GRPC_PORT: String(await findFreePort()),
    });
    // Everything the orchestrator could receive on the subjects a worker must not reach.
    spy = await nats.connect('orchestrator');
    for (const subject of ['talon.secrets.v1.>', 'talon.api.v1.>'])
      spy.subscribe(subject, {
        callback: (_error, message) => {
          seen.push(message.subject);
        },
      });
    await spy.flush();
  }, 60_000);

  afterAll(async () => {
    await spy?.close();
    await orchestrator?.stop();
    await Promise.all([nats?.stop(), database?.drop()]);
  });

  it("refuses anonymous connections and another service's password", async () => {
    await expect(connect({ servers: nats.url, reconnect: false })).rejects.toThrow(/authorization/i);
    await expect(
      connect({
        servers: nats.url,
        user: 'tool-worker',
        pass: nats.credentials['wasm-runner'],
        reconnect: false,
      }),
    ).rejects.toThrow(/authorization/i);
    await expect(
      connect({ servers: nats.url, user: 'orchestrator', pass: nats.credentials.api, reconnect: false }),
    ).rejects.toThrow(/authorization/i);
  });

  it('stops a tool-worker identity at the secrets and API subjects: the orchestrator receives nothing', async () => {
    const worker = await nats.connect('tool-worker');
    const errors = collectNatsErrors(worker);
    const attempts = [
      worker.request('talon.secrets.v1.mcp.get', '{"name":"GITHUB_TOKEN"}', { timeout: 500 }),
      worker.request('talon.api.v1.tools.call', '{"tool":"shell","params":{"command":"id"}}', {
        timeout: 500,
        headers: natsTokenHeaders(nats.bootstrapToken),
      }),
    ];
    const outcomes = await Promise.allSettled(attempts);
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    worker.publish('talon.secrets.v1.mcp.set', '{"name":"x","value":"y"}');
    // Nor can it forge audit records: the outbox and the stream API are the orchestrator's.
    worker.publish('talon.audit.v1.outbox', '{"kind":"tool.call"}');
    worker.publish('$JS.API.STREAM.PURGE.TALON_AUDIT_OUTBOX', '');
    await worker.flush();
    await settle();
    expect(errors.join('\n')).toMatch(/Permissions Violation for Publish to "talon\.secrets\.v1\.mcp\.get"/);
    expect(errors.join('\n')).toMatch(/Permissions Violation for Publish to "talon\.api\.v1\.tools\.call"/);
    expect(errors.join('\n')).toMatch(/Permissions Violation for Publish to "talon\.audit\.v1\.outbox"/);
    expect(errors.join('\n')).toMatch(
      /Permissions Violation for Publish to "\$JS\.API\.STREAM\.PURGE\.TALON_AUDIT_OUTBOX"/,
    );
    expect(seen).toEqual([]);
    await worker.close();
  });

  it('lets the api user call the API and read events, and nothing else', async () => {
    const api = await nats.connect('api');
    const errors = collectNatsErrors(api);
    const reply = await api.request('talon.api.v1.system.ping', '{}', {
      timeout: 5_000,
      headers: natsTokenHeaders(nats.bootstrapToken),
    });
    expect(reply.json()).toMatchObject({ ok: false, error: { code: 'NO_RESPONDERS' } });
    api.subscribe('talon.tools.v1.>');
    api.subscribe('talon.secrets.v1.>');
    api.publish('talon.tools.v1.call.orchestrator', '{}');
    api.publish('talon.tools.v1.catalog.announce', '{}');
    api.publish('talon.audit.v1.outbox', '{}');
    await api.flush();
    await settle();
    const text = errors.join('\n');
    expect(text).toMatch(/Permissions Violation for Subscription to "talon\.tools\.v1\.>"/);
    expect(text).toMatch(/Permissions Violation for Subscription to "talon\.secrets\.v1\.>"/);
    expect(text).toMatch(/Permissions Violation for Publish to "talon\.tools\.v1\.call\.orchestrator"/);
    expect(text).toMatch(/Permissions Violation for Publish to "talon\.tools\.v1\.catalog\.announce"/);
    expect(text).toMatch(/Permissions Violation for Publish to "talon\.audit\.v1\.outbox"/);
    await api.close();
  });

  it("keeps a worker out of other services' replies and tool calls", async () => {
    const worker = await nats.connect('wasm-runner');
    const errors = collectNatsErrors(worker);
    worker.subscribe('_INBOX.>');
    worker.subscribe('_INBOX_orchestrator.>');
    worker.subscribe('talon.tools.v1.call.orchestrator');
    await worker.flush();
    await settle();
    expect(errors.filter((error) => error.includes('Permissions Violation for Subscription'))).toHaveLength(
      3,
    );
    await worker.close();
  });

  it('never logs a NATS password', () => {
    const logs = JSON.stringify(orchestrator.logs);
    for (const password of Object.values(nats.credentials)) expect(logs).not.toContain(password);
  });
});
