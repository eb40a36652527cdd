import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { TALON_PROTO_PATH, type Envelope, type SystemStatus } from '@talon/contracts';
import {
  bearerHeaders,
  findFreePort,
  natsTokenHeaders,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
} from '@talon/testing';

const encoder = new TextEncoder();

describe('foundation: four services on NATS, three API surfaces', () => {
  let nats: NatsTestServer;
  let client: NatsConnection;
  let httpUrl: string;
  let grpcClient: grpc.Client & Record<string, (...args: unknown[]) => unknown>;
  const services: Record<string, ServiceProcess> = {};
  let extraWorker: ServiceProcess;
  let stateDir: string;

  beforeAll(async () => {
    nats = await startNatsTestServer();
    const httpPort = await findFreePort();
    const grpcPort = await findFreePort();
    stateDir = await mkdtemp(join(tmpdir(), 'talon-foundation-'));
    const env = {
      NATS_URL: nats.url,
      TALON_STATE_DIR: stateDir,
      TALON_HTTP_PORT: String(httpPort),
      TALON_GRPC_PORT: String(grpcPort),
      TALON_MAX_PAYLOAD_BYTES: '65536',
    };
    const started = await Promise.all(
      (['orchestrator', 'tool-worker', 'skill-service', 'wasm-runner'] as const).map((name) =>
        startServiceProcess(name, env),
      ),
    );
    for (const service of started) services[service.name] = service;
    extraWorker = await startServiceProcess('tool-worker', env);
    client = await nats.connect('api');
    httpUrl = `http://127.0.0.1:${httpPort}`;
    const definition = protoLoader.loadSync(TALON_PROTO_PATH, { keepCase: true, defaults: true });
    const proto = grpc.loadPackageDefinition(definition) as unknown as {
      talon: { v1: { Talon: grpc.ServiceClientConstructor } };
    };
    grpcClient = new proto.talon.v1.Talon(
      `127.0.0.1:${grpcPort}`,
      grpc.credentials.createInsecure(),
    ) as never;
  }, 60_000);

  afterAll(async () => {
    grpcClient?.close();
    await client?.close();
    await Promise.all([...Object.values(services), extraWorker].map((service) => service?.kill()));
    await nats?.stop();
    await rm(stateDir, { recursive: true, force: true });
  });

  async function natsCall<T>(method: string, payload: Uint8Array | string = '{}'): Promise<Envelope<T>> {
    const body = typeof payload === 'string' ? encoder.encode(payload) : payload;
    const reply = await client.request(`talon.api.v1.${method}`, body, {
      timeout: 5000,
      headers: natsTokenHeaders(nats.bootstrapToken),
    });
    return reply.json<Envelope<T>>();
  }

  function grpcAuth(): grpc.Metadata {
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${nats.bootstrapToken}`);
    return metadata;
  }

  function grpcUnary<T>(method: string, request: object): Promise<T> {
    return new Promise((resolve, reject) =>
      grpcClient[method](request, grpcAuth(), (error: Error | null, reply: T) =>
        error ? reject(error) : resolve(reply),
      ),
    );
  }

  it('started the orchestrator with its larger young generation, and the workers with V8 defaults', async () => {
    const nodeOptions = async (pid: number) =>
      (await readFile(`/proc/${pid}/environ`, 'utf8'))
        .split('\0')
        .find((entry) => entry.startsWith('NODE_OPTIONS='));
    expect(await nodeOptions(services['orchestrator']!.child.pid!)).toMatch(
      /^NODE_OPTIONS=--max-semi-space-size=\d+/,
    );
    // Unless the test run sets its own (TALON_TEST_NODE_OPTIONS).
    if (!process.env.TALON_TEST_NODE_OPTIONS)
      expect(await nodeOptions(services['tool-worker']!.child.pid!)).toBeUndefined();
  });

  it('opened and migrated the embedded PGlite database at start', async () => {
    const line = await services['orchestrator']!.waitForLog((entry) => entry.msg === 'database ready');
    expect(line).toMatchObject({ kind: 'pglite', where: join(stateDir, 'pglite') });
    // The wait is announced first, so `talon up` shows progress while PGlite opens.
    const logs = services['orchestrator']!.logs;
    const opening = logs.findIndex((entry) => entry.msg === 'opening the database');
    expect(opening).toBeGreaterThanOrEqual(0);
    expect(opening).toBeLessThan(logs.indexOf(line));
    expect(logs[opening]).toMatchObject({ kind: 'pglite', note: expect.stringContaining('PGlite') });
  });

  it('reports all four services up over raw NATS, with two tool-worker instances', async () => {
    const reply = await natsCall<SystemStatus>('system.status');
    expect(reply.ok).toBe(true);
    const status = (reply as { data: SystemStatus }).data;
    expect(status.services.map((service) => [service.service, service.state])).toEqual([
      ['orchestrator', 'up'],
      ['skill-service', 'up'],
      ['tool-worker', 'up'],
      ['wasm-runner', 'up'],
    ]);
    const workers = status.services.find((service) => service.service === 'tool-worker')!;
    expect(workers.instances).toHaveLength(2);
    for (const instance of workers.instances) {
      expect(instance.version).toBe('0.1.0');
      expect(instance.latencyMs).toBeGreaterThan(0);
    }
  });

  it('reports the same over HTTP and gRPC', async () => {
    const http = (await (
      await fetch(`${httpUrl}/v1/system/status`, { headers: bearerHeaders(nats.bootstrapToken) })
    ).json()) as Envelope<SystemStatus>;
    expect(http.ok && http.data.services.every((service) => service.state === 'up')).toBe(true);
    const typed = await grpcUnary<{
      services: Array<{ service: string; state: string; instances: unknown[] }>;
    }>('GetSystemStatus', {});
    expect(typed.services.map((service) => service.state)).toEqual(['up', 'up', 'up', 'up']);
    const generic = await grpcUnary<{ ok: boolean; data_json: string }>('Call', {
      method: 'system.status',
      payload_json: '',
    });
    expect(generic.ok).toBe(true);
    expect((JSON.parse(generic.data_json) as SystemStatus).services).toHaveLength(4);
  });

  it('spreads requests over both tool-workers of the queue group', async () => {
    const seen = new Map<string, number>();
    for (let i = 0; i < 60; i++) {
      const reply = await natsCall<{ instanceId: string }>('system.ping', '{"service":"tool-worker"}');
      if (!reply.ok) throw new Error(reply.error.message);
      seen.set(reply.data.instanceId, (seen.get(reply.data.instanceId) ?? 0) + 1);
    }
    expect(seen.size).toBe(2);
    for (const count of seen.values()) expect(count).toBeGreaterThan(5);
  });

  it('answers bad input on NATS with the typed envelope', async () => {
    const malformed = await natsCall('system.status', '{"timeoutMs": ');
    expect(malformed).toMatchObject({ ok: false, error: { code: 'MALFORMED_JSON' } });
    const wrongType = await natsCall('system.status', '{"timeoutMs": "soon"}');
    expect(wrongType).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION', details: { violations: [{ path: '/timeoutMs' }] } },
    });
    const unknown = await natsCall('system.explode');
    expect(unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    const oversized = await natsCall('system.status', JSON.stringify({ padding: 'x'.repeat(70_000) }));
    expect(oversized).toMatchObject({
      ok: false,
      error: { code: 'PAYLOAD_TOO_LARGE', details: { limit: 65536 } },
    });
    const notUtf8 = await natsCall('system.status', new Uint8Array([0xff, 0xfe, 0x7b]));
    expect(notUtf8).toMatchObject({ ok: false, error: { code: 'MALFORMED_JSON' } });
  });

  it('answers bad input on HTTP with the typed envelope and a matching status', async () => {
    const post = (path: string, body: string) =>
      fetch(`${httpUrl}${path}`, { method: 'POST', body, headers: bearerHeaders(nats.bootstrapToken) });
    const malformed = await post('/v1/rpc/system.status', '{nope');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ ok: false, error: { code: 'MALFORMED_JSON' } });
    const wrongType = await post('/v1/rpc/system.status', '{"timeoutMs": -3}');
    expect(wrongType.status).toBe(400);
    expect(await wrongType.json()).toMatchObject({ error: { code: 'SCHEMA_VIOLATION' } });
    const unknown = await post('/v1/rpc/system.explode', '{}');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'UNKNOWN_METHOD' } });
    const oversized = await post('/v1/rpc/system.status', JSON.stringify({ padding: 'x'.repeat(70_000) }));
    expect(oversized.status).toBe(413);
    expect(await oversized.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    const unknownRoute = await fetch(`${httpUrl}/nowhere`, { headers: bearerHeaders(nats.bootstrapToken) });
    expect(unknownRoute.status).toBe(404);
    expect(await unknownRoute.json()).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
  });

  it('answers bad input on gRPC with the typed envelope', async () => {
    const malformed = await grpcUnary<{ ok: boolean; error: { code: string } }>('Call', {
      method: 'system.status',
      payload_json: '{x',
    });
    expect(malformed).toMatchObject({ ok: false, error: { code: 'MALFORMED_JSON' } });
    const wrongType = await grpcUnary<{ ok: boolean; error: { code: string } }>('Call', {
      method: 'system.status',
      payload_json: '{"timeoutMs":"x"}',
    });
    expect(wrongType).toMatchObject({ ok: false, error: { code: 'SCHEMA_VIOLATION' } });
    const unknown = await grpcUnary<{ ok: boolean; error: { code: string } }>('Call', {
      method: 'nope.nope',
      payload_json: '{}',
    });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    const oversized = await grpcUnary<{ ok: boolean; error: { code: string } }>('Call', {
      method: 'system.status',
      payload_json: JSON.stringify({ padding: 'x'.repeat(70_000) }),
    });
    expect(oversized).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('streams status over SSE', async () => {
    const controller = new AbortController();
    const response = await fetch(`${httpUrl}/v1/system/status/stream?intervalMs=250`, {
      signal: controller.signal,
      headers: bearerHeaders(nats.bootstrapToken),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    while ((text.match(/\n\n/g) ?? []).length < 2)
      text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const events = text.split('\n\n').filter((block) => block.includes('data:'));
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events[0]).toContain('event: status');
    expect(JSON.parse(events[0]!.split('data: ')[1]!).services).toHaveLength(4);
  });

  it('reports a stopped service as down within a bounded time, without hanging', async () => {
    const code = await services['skill-service']!.stop('SIGTERM');
    expect(code).toBe(0);
    const started = Date.now();
    const reply = await natsCall<SystemStatus>('system.status', '{"timeoutMs": 400}');
    expect(Date.now() - started).toBeLessThan(2000);
    const status = (reply as { data: SystemStatus }).data;
    expect(status.services.find((service) => service.service === 'skill-service')).toMatchObject({
      state: 'down',
      instances: [],
    });
    expect(status.services.find((service) => service.service === 'orchestrator')!.state).toBe('up');
    const ping = await natsCall('system.ping', '{"service":"skill-service","timeoutMs":500}');
    expect(ping).toMatchObject({ ok: false, error: { code: 'NO_RESPONDERS' } });
  });

  it('refuses to start with a clear message when NATS cannot be reached', async () => {
    const deadPort = await findFreePort();
    const worker = await startServiceProcess(
      'tool-worker',
      { NATS_URL: `nats://127.0.0.1:${deadPort}`, NATS_CONNECT_ATTEMPTS: '2', NATS_CONNECT_DELAY_MS: '50' },
      { waitReady: false },
    );
    const line = await worker.waitForLog((entry) => entry.level === 'error');
    expect(String(line.msg)).toMatch(/Cannot reach NATS at nats:\/\/127\.0\.0\.1:\d+ after 2 attempts/);
    expect(await new Promise((resolve) => worker.child.once('exit', resolve))).toBe(1);
  });
});
