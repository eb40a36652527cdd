import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { TALON_PROTO_PATH, type ChatSendReply, type Envelope } from '@talon/contracts';
import {
  createTestDatabase,
  findFreePort,
  renderTrace,
  REPO_ROOT,
  startNatsTestServer,
  startOtlpReceiver,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type OtlpReceiver,
  type ReceivedSpan,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';
import { startOpenAiCompatibleServer, type LlmTestServer } from '../../../libs/llm/test/support/index.js';

const EVERYTHING = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const PLANTED_SECRET = 'planted-secret-7f3a9c1e5b';
const PLANTED_API_KEY = 'sk-planted-llm-key-2b8d4e6f';

const SKILL = `---
name: release-notes
description: Writes release notes from a list of merged changes.
activation:
  keywords: [release notes]
---
Group the changes by area.
`;

interface MetricFamily {
  name: string;
  metrics: Array<{ labels?: Record<string, string>; value?: string }>;
}

/** The value of one series of a parsed scrape (0 when absent). */
function seriesValue(families: MetricFamily[], name: string, labels: Record<string, string>): number {
  const family = families.find((entry) => entry.name === name);
  const series = family?.metrics.find((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
  );
  return series ? Number(series.value) : 0;
}

/**
 * The `_count` and `_sum` of one histogram series, read from the text itself: the parser drops the labels
 * of histogram series whose `le` is not their last label, as prom-client writes them.
 */
function histogramSeries(text: string, name: string, labels: Record<string, string>) {
  const read = (suffix: string): number => {
    for (const line of text.split('\n')) {
      const match = new RegExp(`^${name}_${suffix}\\{(.*)\\} (\\S+)$`).exec(line);
      if (!match) continue;
      const found = Object.fromEntries(
        [...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((label) => [label[1], label[2]]),
      );
      if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[2]);
    }
    return 0;
  };
  return { count: read('count'), sum: read('sum') };
}

async function startEverything(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything not ready: ${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port|running on port/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  });
  return child;
}

describe('one trace per turn across every service, metrics on every service', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let llm: LlmTestServer;
  let receiver: OtlpReceiver;
  let client: NatsConnection;
  let everything: ChildProcess;
  let base: string;
  let httpPort: number;
  let grpcPort: number;
  let workerMetricsPort: number;
  let skillMetricsPort: number;
  let runnerMetricsPort: number;
  const services: ServiceProcess[] = [];
  let orchestrator: ServiceProcess;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'talon-observability-'));
    await mkdir(join(base, 'skills', 'release-notes'), { recursive: true });
    await writeFile(join(base, 'skills', 'release-notes', 'SKILL.md'), SKILL);
    await mkdir(join(base, 'state', 'workspace'), { recursive: true });
    await mkdir(join(base, 'no-mcp'), { recursive: true });
    const mcpPort = await findFreePort();
    const mcpConfig = join(base, 'mcp.json');
    await writeFile(
      mcpConfig,
      JSON.stringify([
        {
          name: 'remote',
          transport: { type: 'streamable-http', url: `http://127.0.0.1:${mcpPort}/mcp` },
          effects: ['network'],
        },
      ]),
    );
    [nats, database, llm, receiver, everything] = await Promise.all([
      startNatsTestServer(),
      createTestDatabase(),
      startOpenAiCompatibleServer(),
      startOtlpReceiver(),
      startEverything(mcpPort),
    ]);
    [httpPort, grpcPort, workerMetricsPort, skillMetricsPort, runnerMetricsPort] = await Promise.all(
      [1, 2, 3, 4, 5].map(() => findFreePort()),
    );
    const tracing = {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '200',
      TALON_STATE_DIR: join(base, 'state'),
      NATS_URL: nats.url,
    };
    services.push(
      ...(await Promise.all([
        startServiceProcess('skill-service', {
          ...tracing,
          TALON_METRICS_PORT: String(skillMetricsPort),
          SKILLS_WORKSPACE_DIR: join(base, 'skills'),
          SKILLS_DIR: join(base, 'user-skills'),
          SKILLS_INSTALLED_DIR: join(base, 'installed'),
        }),
        startServiceProcess('tool-worker', {
          ...tracing,
          TALON_METRICS_PORT: String(workerMetricsPort),
          TALON_MCP_CONFIG: mcpConfig,
          TALON_SSRF_ALLOWLIST: '127.0.0.1/32',
        }),
        startServiceProcess('wasm-runner', {
          ...tracing,
          TALON_METRICS_PORT: String(runnerMetricsPort),
          TALON_WORKSPACE_DIR: join(base, 'state', 'workspace'),
          TALON_MCP_REGISTRY_DIR: join(base, 'no-mcp'),
        }),
      ])),
    );
    orchestrator = await startServiceProcess('orchestrator', {
      ...tracing,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(httpPort),
      TALON_GRPC_PORT: String(grpcPort),
      TALON_LLM_PROVIDER: 'openai',
      TALON_LLM_BASE_URL: llm.baseURL,
      TALON_LLM_API_KEY: PLANTED_API_KEY,
      TALON_LLM_MODEL: 'test-model',
      TALON_SECRETS_KEY: Buffer.alloc(32, 5).toString('base64'),
    });
    client = await nats.connect('api');
    await api('secrets.set', { name: 'PLANTED', value: PLANTED_SECRET, hostPatterns: ['127.0.0.1'] });
    await api('tools.install', { name: 'text-stats' });
    await waitUntil(
      async () => {
        const names = (
          await api<{ tools: Array<{ definition: { name: string } }> }>('tools.list', {})
        ).tools.map((tool) => tool.definition.name);
        return ['echo', 'text-stats', 'remote_echo'].every((name) => names.includes(name));
      },
      30_000,
      'echo, text-stats and remote_echo in the catalog',
    );
  }, 150_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all([orchestrator, ...services].map((service) => service?.stop().catch(() => undefined)));
    everything?.kill('SIGTERM');
    await Promise.all([nats?.stop(), database?.drop(), llm?.close(), receiver?.close()]);
    await rm(base, { recursive: true, force: true });
  });

  async function api<T>(method: string, payload: unknown, traceparent?: string): Promise<T> {
    const headers = natsHeaders();
    headers.set('talon-token', nats.bootstrapToken);
    if (traceparent) headers.set('traceparent', traceparent);
    const reply = (
      await client.request(`talon.api.v1.${method}`, JSON.stringify(payload), { timeout: 60_000, headers })
    ).json<Envelope<T>>();
    if (!reply.ok) throw Object.assign(new Error(reply.error.message), reply.error);
    return reply.data;
  }

  const newSession = async () => (await api<{ id: string }>('sessions.create', { title: 'trace' })).id;
  const traceOf = (traceId: string) => receiver.spans.filter((span) => span.traceId === traceId);
  const randomHex = (bytes: number) =>
    Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');

  it('a turn with a skill, a worker tool, a WASM tool and an MCP tool is one trace over four services', async () => {
    const sessionId = await newSession();
    const traceId = randomHex(16);
    const clientSpanId = randomHex(8);
    // A person approves whatever the turn asks for (the approval wait is a span of its own).
    const approvals = client.subscribe(`talon.events.v1.session.${sessionId}`, {
      callback: (_error, message) => {
        const event = message.json<{ type: string; approvalId?: string }>();
        if (event.type === 'approval_requested')
          void api('approvals.resolve', { id: event.approvalId, decision: 'approve' });
      },
    });
    llm.enqueue(
      {
        toolCalls: [
          { name: 'echo', arguments: { message: 'ping' } },
          { name: 'text-stats', arguments: { text: 'alpha beta beta' } },
          { name: 'remote_echo', arguments: { message: 'over mcp' } },
        ],
      },
      { text: 'All three answered.' },
    );
    const reply = await api<ChatSendReply>(
      'chat.send',
      { sessionId, message: 'Write the release notes, then count words' },
      `00-${traceId}-${clientSpanId}-01`,
    );
    approvals.unsubscribe();
    expect(reply).toMatchObject({ reason: 'final_answer', content: 'All three answered.' });
    const expected = ['execute_tool echo', 'execute_tool text-stats', 'execute_tool remote_echo'];
    await waitUntil(
      () => {
        const spans = traceOf(traceId);
        const services = new Set(spans.map((span) => span.service));
        return (
          ['talon-orchestrator', 'talon-skill-service', 'talon-tool-worker', 'talon-wasm-runner'].every(
            (name) => services.has(name),
          ) &&
          spans.some((span) => span.name === 'talon.audit.write') &&
          spans.some((span) => span.name.startsWith('tools/call')) &&
          spans.some((span) => span.name.startsWith('talon.wasm.execute')) &&
          expected.every((name) => spans.filter((span) => span.name === name).length >= 2) &&
          // Spans are exported as they end: wait until every parent (the request's own span last) has
          // arrived, that is until the one span without its parent here is the child of the client's span.
          spans
            .filter((span) => !spans.some((parent) => parent.spanId === span.parentSpanId))
            .every((span) => span.parentSpanId === clientSpanId)
        );
      },
      20_000,
      'the spans of all four services',
    );
    const spans = traceOf(traceId);
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    // The client's span is the parent of the first span Talon made; every other span has its parent here.
    const roots = spans.filter((span) => !byId.has(span.parentSpanId ?? ''));
    expect(roots.map((span) => [span.name, span.parentSpanId])).toEqual([
      ['process talon.api.v1.chat.send', clientSpanId],
    ]);
    const named = (name: string, service?: string) =>
      spans.find((span) => span.name === name && (service === undefined || span.service === service))!;
    const ancestors = (span: ReceivedSpan): string[] => {
      const names: string[] = [];
      for (let at = byId.get(span.parentSpanId ?? ''); at; at = byId.get(at.parentSpanId ?? ''))
        names.push(at.name);
      return names;
    };
    const turn = named('invoke_agent talon');
    expect(turn.attributes).toMatchObject({
      'talon.session.id': sessionId,
      'talon.skill.names': ['release-notes'],
    });
    expect(ancestors(turn)).toEqual(['talon.api/chat.send', 'process talon.api.v1.chat.send']);
    expect(ancestors(named('process talon.skills.v1.select', 'talon-skill-service'))).toContain(
      'invoke_agent talon',
    );
    const model = named('chat test-model');
    expect(model.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'test-model',
      'gen_ai.operation.name': 'chat',
    });
    expect(model.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(model.attributes['gen_ai.server.time_to_first_token']).toBeGreaterThan(0);
    // Each tool call: the orchestrator's span (policy on it) → dispatch → NATS → the worker's execution.
    const echoCall = named('execute_tool echo', 'talon-orchestrator');
    expect(echoCall.attributes).toMatchObject({ 'gen_ai.tool.name': 'echo', 'talon.policy.action': 'allow' });
    expect(typeof echoCall.attributes['talon.policy.source']).toBe('string');
    expect(ancestors(named('execute_tool echo', 'talon-tool-worker'))).toEqual(
      expect.arrayContaining([
        'process talon.tools.v1.call.orchestrator',
        'send talon.tools.v1.call.orchestrator',
        'talon.tool.dispatch',
        'execute_tool echo',
        'invoke_agent talon',
      ]),
    );
    expect(named('talon.tool.dispatch').attributes['talon.instance.id']).toEqual(expect.any(String));
    const wasm = spans.find((span) => span.name.startsWith('talon.wasm.execute'))!;
    expect(wasm.service).toBe('talon-wasm-runner');
    expect(ancestors(wasm)).toEqual(
      expect.arrayContaining(['execute_tool text-stats', 'invoke_agent talon']),
    );
    const mcp = spans.find((span) => span.name.startsWith('tools/call'))!;
    expect(mcp).toMatchObject({ service: 'talon-tool-worker', attributes: { 'talon.mcp.server': 'remote' } });
    expect(ancestors(mcp)).toEqual(
      expect.arrayContaining(['execute_tool remote_echo', 'invoke_agent talon']),
    );
    expect(spans.filter((span) => span.name === 'talon.audit.write').length).toBeGreaterThanOrEqual(3);
    expect(spans.some((span) => span.name === 'talon.policy.decide')).toBe(true);
    // Secrets stay out of every export.
    for (const body of receiver.bodies) {
      expect(body).not.toContain(PLANTED_SECRET);
      expect(body).not.toContain(PLANTED_API_KEY);
      expect(body).not.toContain(nats.bootstrapToken);
    }
    // Log lines written inside the turn carry its trace.
    const traced = [orchestrator, ...services]
      .flatMap((service) => service.logs)
      .filter((line) => line.trace_id === traceId);
    for (const line of traced) expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
    process.stdout.write(`\n${renderTrace(spans)}\n`);
  });

  it('continues a traceparent sent over HTTP and gRPC; a malformed one starts a new trace', async () => {
    const sessionId = await newSession();
    const traceId = randomHex(16);
    const parent = randomHex(8);
    llm.enqueue({ text: 'over http' });
    const http = await fetch(`http://127.0.0.1:${httpPort}/v1/rpc/chat.send`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${nats.bootstrapToken}`,
        'content-type': 'application/json',
        host: `127.0.0.1:${httpPort}`,
        traceparent: `00-${traceId}-${parent}-01`,
      },
      body: JSON.stringify({ sessionId, message: 'hello over http' }),
    });
    expect(http.status).toBe(200);
    // gRPC: the generic Call, a typed RPC and the Chat stream each continue the caller's trace.
    const definition = protoLoader.loadSync(TALON_PROTO_PATH, { keepCase: true });
    const Talon = (
      grpc.loadPackageDefinition(definition) as unknown as {
        talon: { v1: { Talon: grpc.ServiceClientConstructor } };
      }
    ).talon.v1.Talon;
    const grpcClient = new Talon(`127.0.0.1:${grpcPort}`, grpc.credentials.createInsecure()) as unknown as {
      Call(r: unknown, m: grpc.Metadata, cb: (e: Error | null, v: { ok: boolean }) => void): void;
      ListSessions(r: unknown, m: grpc.Metadata, cb: (e: Error | null, v: unknown) => void): void;
      Chat(r: unknown, m: grpc.Metadata): NodeJS.ReadableStream;
      close(): void;
    };
    const traced = (traceparent: string) => {
      const metadata = new grpc.Metadata();
      metadata.set('authorization', `Bearer ${nats.bootstrapToken}`);
      metadata.set('traceparent', traceparent);
      return metadata;
    };
    const grpcTrace = randomHex(16);
    const grpcParent = randomHex(8);
    const grpcReply = await new Promise<{ ok: boolean }>((resolve, reject) =>
      grpcClient.Call(
        { method: 'sessions.list', payload_json: '{}' },
        traced(`00-${grpcTrace}-${grpcParent}-01`),
        (error, value) => (error ? reject(error) : resolve(value)),
      ),
    );
    expect(grpcReply.ok).toBe(true);
    const typedTrace = randomHex(16);
    const typedParent = randomHex(8);
    await new Promise((resolve, reject) =>
      grpcClient.ListSessions({ limit: 5 }, traced(`00-${typedTrace}-${typedParent}-01`), (error, value) =>
        error ? reject(error) : resolve(value),
      ),
    );
    const chatTrace = randomHex(16);
    const chatParent = randomHex(8);
    llm.enqueue({ text: 'over grpc' });
    const events: Array<{ type: string }> = [];
    await new Promise<void>((resolve, reject) => {
      const stream = grpcClient.Chat(
        { session_id: sessionId, message: 'hello over grpc' },
        traced(`00-${chatTrace}-${chatParent}-01`),
      );
      stream.on('data', (event: { type: string }) => events.push(event));
      stream.on('end', () => resolve());
      stream.on('error', reject);
    });
    grpcClient.close();
    expect(events.at(-1)?.type).toBe('result');
    // SSE: the message endpoint continues the caller's trace like /v1/rpc does.
    const sseTrace = randomHex(16);
    const sseParent = randomHex(8);
    llm.enqueue({ text: 'over sse' });
    const sse = await fetch(`http://127.0.0.1:${httpPort}/v1/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${nats.bootstrapToken}`,
        'content-type': 'application/json',
        traceparent: `00-${sseTrace}-${sseParent}-01`,
      },
      body: JSON.stringify({ message: 'hello over sse' }),
    });
    expect(await sse.text()).toContain('event: result');
    llm.enqueue({ text: 'still answered' });
    const malformed = await fetch(`http://127.0.0.1:${httpPort}/v1/rpc/chat.send`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${nats.bootstrapToken}`,
        'content-type': 'application/json',
        traceparent: '00-zzzz-not-a-trace-01',
        tracestate: `a=${'x'.repeat(5000)}`,
      },
      body: JSON.stringify({ sessionId, message: 'hello again' }),
    });
    expect(malformed.status).toBe(200);
    const turnOf = (trace: string) =>
      traceOf(trace).some((span) => span.name === 'invoke_agent talon') &&
      traceOf(trace).some((span) => span.name === 'talon.api/chat.send');
    await waitUntil(
      () =>
        turnOf(traceId) &&
        turnOf(chatTrace) &&
        turnOf(sseTrace) &&
        traceOf(grpcTrace).some((span) => span.name === 'talon.api/sessions.list') &&
        traceOf(typedTrace).some((span) => span.name === 'talon.api/sessions.list'),
      20_000,
      'the HTTP, SSE and gRPC traces',
    );
    const httpRoot = traceOf(traceId).find((span) => span.name === 'talon.api/chat.send')!;
    expect(httpRoot).toMatchObject({ parentSpanId: parent, attributes: { 'talon.api.surface': 'http' } });
    const grpcRoot = traceOf(grpcTrace).find((span) => span.name === 'talon.api/sessions.list')!;
    expect(grpcRoot).toMatchObject({ parentSpanId: grpcParent, attributes: { 'talon.api.surface': 'grpc' } });
    const typedRoot = traceOf(typedTrace).find((span) => span.name === 'talon.api/sessions.list')!;
    expect(typedRoot).toMatchObject({
      parentSpanId: typedParent,
      attributes: { 'talon.api.surface': 'grpc' },
    });
    // A streamed turn is one trace: the caller's span → the chat span → the agent's turn → the model call.
    for (const [trace, caller, surface] of [
      [chatTrace, chatParent, 'grpc'],
      [sseTrace, sseParent, 'http'],
    ] as const) {
      const spans = traceOf(trace);
      const root = spans.find((span) => span.name === 'talon.api/chat.send')!;
      expect(root).toMatchObject({ parentSpanId: caller, attributes: { 'talon.api.surface': surface } });
      const turn = spans.find((span) => span.name === 'invoke_agent talon')!;
      expect(turn.parentSpanId).toBe(root.spanId);
      expect(spans.some((span) => span.name === 'chat test-model')).toBe(true);
    }
    // The malformed call's span: HTTP, in a trace of its own (not one a test sent a traceparent for).
    const isFresh = (span: ReceivedSpan) =>
      span.name === 'talon.api/chat.send' &&
      span.attributes['talon.api.surface'] === 'http' &&
      span.traceId !== traceId &&
      span.traceId !== sseTrace;
    await waitUntil(() => receiver.spans.some(isFresh), 20_000, 'a new trace for the malformed traceparent');
    const fresh = receiver.spans.filter(isFresh);
    expect(fresh).toHaveLength(1);
    expect(fresh.every((span) => span.parentSpanId === undefined)).toBe(true);
  });

  const scrape = async (url: string, token?: string): Promise<MetricFamily[]> => {
    const response = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    expect(response.status).toBe(200);
    return parsePrometheusTextFormat(await response.text()) as MetricFamily[];
  };

  it('serves /metrics on every service, and the counters move with calls and failures', async () => {
    const orchestratorUrl = `http://127.0.0.1:${httpPort}/metrics`;
    const workerUrl = `http://127.0.0.1:${workerMetricsPort}/metrics`;
    // The API port's /metrics is behind the front door.
    expect((await fetch(orchestratorUrl)).status).toBe(401);
    const before = await scrape(orchestratorUrl, nats.bootstrapToken);
    const workerBefore = await scrape(workerUrl);
    await api('tools.call', { tool: 'echo', params: { message: 'count me' } });
    const failed = await client.request(
      'talon.api.v1.tools.call',
      JSON.stringify({ tool: 'web_fetch', params: { url: 'http://169.254.169.254/latest/meta-data' } }),
      {
        timeout: 30_000,
        headers: (() => {
          const h = natsHeaders();
          h.set('talon-token', nats.bootstrapToken);
          return h;
        })(),
      },
    );
    const failure = failed.json<Envelope<unknown>>();
    expect(failure.ok).toBe(false);
    const code = failure.ok ? '' : failure.error.code;
    const after = await scrape(orchestratorUrl, nats.bootstrapToken);
    const workerAfter = await scrape(workerUrl);
    const ok = { tool: 'echo', domain: 'orchestrator', code: 'ok' };
    expect(seriesValue(after, 'talon_tool_calls_total', ok)).toBe(
      seriesValue(before, 'talon_tool_calls_total', ok) + 1,
    );
    const failedSeries = { tool: 'web_fetch', code };
    expect(seriesValue(after, 'talon_tool_calls_total', failedSeries)).toBe(
      seriesValue(before, 'talon_tool_calls_total', failedSeries) + 1,
    );
    expect(seriesValue(workerAfter, 'talon_tool_executions_total', { tool: 'echo', code: 'ok' })).toBe(
      seriesValue(workerBefore, 'talon_tool_executions_total', { tool: 'echo', code: 'ok' }) + 1,
    );
    expect(
      seriesValue(after, 'talon_api_requests_total', { method: 'tools.call', surface: 'nats', code: 'ok' }),
    ).toBeGreaterThan(0);
    expect(
      seriesValue(after, 'talon_model_calls_total', { provider: 'openai', model: 'test-model', code: 'ok' }),
    ).toBeGreaterThan(0);
    expect(
      seriesValue(after, 'talon_model_tokens_total', { provider: 'openai', type: 'input' }),
    ).toBeGreaterThan(0);
    expect(seriesValue(after, 'talon_catalog_tools', { source: 'container' })).toBeGreaterThan(0);
    expect(after.some((family) => family.name === 'talon_approvals_pending')).toBe(true);
    const skills = await scrape(`http://127.0.0.1:${skillMetricsPort}/metrics`);
    expect(
      seriesValue(skills, 'talon_nats_requests_total', { subject: 'talon.skills.v1.select', code: 'ok' }),
    ).toBeGreaterThan(0);
    const runner = await scrape(`http://127.0.0.1:${runnerMetricsPort}/metrics`);
    expect(
      seriesValue(runner, 'talon_tool_executions_total', { tool: 'text-stats', code: 'ok' }),
    ).toBeGreaterThan(0);
    expect(seriesValue(runner, 'talon_wasm_instances', {})).toBeGreaterThan(0);
    expect(seriesValue(workerAfter, 'talon_mcp_servers', { state: 'running' })).toBe(1);
  });

  it('counts routine fires by source and outcome, their lag, running jobs and final job states', async () => {
    const metricsText = async (): Promise<string> => {
      const response = await fetch(`http://127.0.0.1:${httpPort}/metrics`, {
        headers: { authorization: `Bearer ${nats.bootstrapToken}` },
      });
      expect(response.status).toBe(200);
      return response.text();
    };
    const scrapeOrchestrator = async () => parsePrometheusTextFormat(await metricsText()) as MetricFamily[];
    const beforeText = await metricsText();
    const before = parsePrometheusTextFormat(beforeText) as MetricFamily[];
    const value = (families: MetricFamily[], name: string, labels: Record<string, string>) =>
      seriesValue(families, name, labels) - seriesValue(before, name, labels);
    const lag = (text: string, source: string) => {
      const [now, then] = [text, beforeText].map((body) =>
        histogramSeries(body, 'talon_routine_fire_lag_seconds', { source }),
      );
      return { count: now!.count - then!.count, sum: now!.sum - then!.sum };
    };
    // A scheduled routine (fired by the scheduler) and a manual one fired twice, the second skipped by its
    // max-concurrent guardrail while the first job still runs.
    const { routine: ticking } = await api<{ routine: { id: string } }>('routines.create', {
      name: 'ticking',
      trigger: { kind: 'interval', everyMs: 1000 },
      action: { kind: 'reminder', text: 'tick' },
    });
    const { routine: manual } = await api<{ routine: { id: string } }>('routines.create', {
      name: 'by-hand',
      trigger: { kind: 'manual' },
      action: { kind: 'prompt', prompt: 'Take your time.' },
      guardrails: { maxConcurrent: 1 },
    });
    // The prompt job streams slowly, so it is seen running.
    llm.enqueue({ text: ['slow', ' and', ' steady', ' answer'], frameDelayMs: 400 });
    const fired = await api<{ jobId: string; outcome: string }>('routines.fire', { id: manual.id });
    expect(fired.outcome).toBe('enqueued');
    await waitUntil(
      async () => seriesValue(await scrapeOrchestrator(), 'talon_jobs_running', {}) >= 1,
      10_000,
      'the prompt job running in talon_jobs_running',
      100,
    );
    expect(await api<{ outcome: string }>('routines.fire', { id: manual.id })).toMatchObject({
      outcome: 'skipped',
    });
    await waitUntil(
      async () => (await api<{ state: string }>('jobs.get', { id: fired.jobId })).state === 'completed',
      20_000,
      'the prompt job completed',
      100,
    );
    await waitUntil(
      async () =>
        (await api<{ fires: Array<{ outcome: string }> }>('routines.history', { id: ticking.id })).fires.some(
          (fire) => fire.outcome === 'completed',
        ),
      20_000,
      'a scheduled fire completed',
      100,
    );
    await api('routines.pause', { id: ticking.id });
    let after: MetricFamily[] = [];
    await waitUntil(
      async () => {
        after = await scrapeOrchestrator();
        return seriesValue(after, 'talon_jobs_running', {}) === 0;
      },
      10_000,
      'no job running',
      100,
    );
    expect(
      value(after, 'talon_routine_fires_total', { source: 'schedule', outcome: 'enqueued' }),
    ).toBeGreaterThan(0);
    expect(value(after, 'talon_routine_fires_total', { source: 'manual', outcome: 'enqueued' })).toBe(1);
    expect(value(after, 'talon_routine_fires_total', { source: 'manual', outcome: 'skipped' })).toBe(1);
    // The lag of every started job: a scheduled slot is taken within a few ticks.
    const afterText = await metricsText();
    expect(lag(afterText, 'manual').count).toBe(1);
    const scheduled = lag(afterText, 'schedule');
    expect(scheduled.count).toBeGreaterThan(0);
    expect(scheduled.sum / scheduled.count).toBeLessThan(5);
    expect(value(after, 'talon_jobs_finished_total', { state: 'completed' })).toBeGreaterThanOrEqual(2);
  });
});
