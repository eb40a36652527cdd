import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kvm } from '@nats-io/kv';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  HEADERS,
  SHARED_STATE_BUCKETS,
  SUBJECTS,
  type ChatEvent,
  type ChatSendReply,
  type Envelope,
  type ToolCallRequest,
  type ToolCallResult,
  type ToolsCallReply,
  type ToolsListReply,
} from '@talon/contracts';
import {
  createTestDatabase,
  findFreePort,
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
  connectTalonApi,
  waitUntil,
  type TalonApiClient,
} from '@talon/testing';
import { startHeaderEchoServer, type HeaderEchoServer } from './support/header-echo-server.js';
import { builtComponent, sha256Of, variantOf, writeRegistryEntry } from './support/wasm-test-registry.js';
import { startOpenAiCompatibleServer, type LlmTestServer } from '../../../libs/llm/test/support/index.js';

const SECRET = 'probe-secret-Zq81xKv0-never-in-output';
/** How long an installed or removed tool may take to show in (or leave) the orchestrator's catalog. */
const CATALOG_BOUND_MS = 3_000;

type Summary = { name: string; version: string; sha256: string };

describe('WebAssembly tools in the wasm-runner, through the orchestrator', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let client: NatsConnection;
  let orchestratorBus: NatsConnection | undefined;
  let talon: TalonApiClient;
  let orchestrator: ServiceProcess;
  let runner: ServiceProcess;
  let runnerEnv: Record<string, string>;
  let base: string;
  let registryDir: string;
  let workspace: string;
  let keyed: HeaderEchoServer;
  let other: HeaderEchoServer;
  let llm: LlmTestServer;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'tools-src/build.mjs'), '--quiet'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    });
    // A build failure fails the suite: the services run from dist/, which must match the sources.
    execFileSync(
      process.execPath,
      [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'apps/wasm-runner', 'apps/orchestrator'],
      { cwd: REPO_ROOT, stdio: 'pipe' },
    );
    base = await mkdtemp(join(tmpdir(), 'talon-wasm-it-'));
    registryDir = join(base, 'registry');
    workspace = join(base, 'workspace');
    await mkdir(join(workspace, 'docs'), { recursive: true });
    await mkdir(join(base, 'no-mcp'), { recursive: true });
    [keyed, other] = await Promise.all([startHeaderEchoServer(), startHeaderEchoServer()]);

    const textStats = builtComponent('text-stats');
    const textStatsSha = await sha256Of(textStats);
    const textStatsCaps = join(REPO_ROOT, 'tools-src/text-stats/text-stats.capabilities.json');
    await writeRegistryEntry(registryDir, {
      name: 'text-stats',
      artifact: textStats,
      sha256: textStatsSha,
      capabilities: textStatsCaps,
    });
    await writeRegistryEntry(registryDir, {
      name: 'bad-sha',
      artifact: textStats,
      sha256: 'a'.repeat(64),
      capabilities: textStatsCaps,
    });
    await writeRegistryEntry(registryDir, {
      name: 'bad-wit',
      artifact: textStats,
      sha256: textStatsSha,
      capabilities: textStatsCaps,
      wit_version: '0.9.0',
    });
    await writeRegistryEntry(registryDir, {
      name: 'read_file',
      artifact: textStats,
      sha256: textStatsSha,
      capabilities: textStatsCaps,
    });
    const wasi = builtComponent('wasi-random', 'wat');
    await writeRegistryEntry(registryDir, {
      name: 'wasi-random',
      artifact: wasi,
      sha256: await sha256Of(wasi),
      capabilities: join(REPO_ROOT, 'tools-src/wat/wasi-random.capabilities.json'),
    });
    const probe = builtComponent('probe', 'wat');
    await writeRegistryEntry(registryDir, {
      name: 'probe',
      artifact: probe,
      sha256: await sha256Of(probe),
      capabilities: { effects: [], limits: { memory_mb: 4, timeout_ms: 1000, max_concurrency: 2 } },
    });
    const hostProbe = builtComponent('host-probe');
    await writeRegistryEntry(registryDir, {
      name: 'host-probe',
      artifact: hostProbe,
      sha256: await sha256Of(hostProbe),
      capabilities: hostProbeCapabilities(),
    });

    [nats, database, llm] = await Promise.all([
      startNatsTestServer(),
      createTestDatabase(),
      startOpenAiCompatibleServer(),
    ]);
    orchestrator = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_LLM_PROVIDER: 'openai',
      TALON_LLM_BASE_URL: llm.baseURL,
      TALON_LLM_API_KEY: 'test-key',
      TALON_LLM_MODEL: 'test-model',
      TALON_SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
      TALON_HTTP_PORT: String(await findFreePort()),
      TALON_GRPC_PORT: String(await findFreePort()),
    });
    runnerEnv = {
      NATS_URL: nats.url,
      TALON_STATE_DIR: join(base, 'state'),
      TALON_WORKSPACE_DIR: workspace,
      TALON_TOOL_REGISTRY_DIR: registryDir,
      TALON_MCP_REGISTRY_DIR: join(base, 'no-mcp'),
      TALON_SSRF_ALLOWLIST: '127.0.0.1/32',
    };
    runner = await startServiceProcess('wasm-runner', runnerEnv);
    talon = await connectTalonApi(nats.url);
    client = talon.connection;
    await waitUntil(
      async () => (await catalogNames()).includes('tool_install'),
      10_000,
      'extension tools in the catalog',
    );
  }, 300_000);

  afterAll(async () => {
    await client?.close();
    await orchestratorBus?.close();
    await Promise.all([orchestrator, runner].map((service) => service?.stop().catch(() => undefined)));
    await Promise.all([nats?.stop(), database?.drop(), keyed?.close(), other?.close(), llm?.close()]);
    await rm(base, { recursive: true, force: true });
  });

  function hostProbeCapabilities(version = 'v1'): Record<string, unknown> {
    return {
      effects: ['network', 'use_secret', 'read_filesystem', 'dispatch_capability'],
      http: {
        allowlist: [
          { host: `127.0.0.1:${keyed.port}`, path_prefix: '/', methods: ['GET'] },
          { host: `localhost:${other.port}`, path_prefix: '/', methods: ['GET'] },
        ],
        credentials: [
          {
            secret_name: 'probe_key',
            location: { kind: 'header', name: 'X-Probe-Key' },
            host_patterns: ['127.0.0.1'],
          },
        ],
      },
      secrets: ['probe_key'],
      workspace: { read_prefixes: ['docs/'] },
      tool_aliases: { stats: 'text-stats' },
      limits: { memory_mb: 128, timeout_ms: version === 'v1' ? 5000 : 6000, max_concurrency: 4 },
    };
  }

  const catalogNames = async () =>
    (await talon.ok<ToolsListReply>('tools.list', {})).tools.map((tool) => tool.definition.name);
  const call = (tool: string, params: Record<string, unknown>) =>
    talon.call<ToolsCallReply>('tools.call', { tool, params });
  const probeOutput = (reply: ToolsCallReply) => reply.output as { ok?: unknown; err?: string };

  /** Sends a call straight to the container domain, as the orchestrator's dispatcher does, with credential grants. */
  async function callWithGrants(
    tool: string,
    params: Record<string, unknown>,
  ): Promise<Envelope<ToolCallResult>> {
    const request: ToolCallRequest = {
      callId: `grant-${Date.now()}`,
      tool,
      params,
      timeoutMs: 5000,
      grants: [
        {
          secretName: 'probe_key',
          value: SECRET,
          hostPatterns: ['127.0.0.1'],
          location: { kind: 'header', name: 'X-Probe-Key' },
        },
      ],
    };
    const headers = natsHeaders();
    headers.set(HEADERS.deadline, String(Date.now() + 5000));
    // Only the orchestrator's NATS user may send tool calls to the runner.
    orchestratorBus ??= await nats.connect('orchestrator');
    const reply = await orchestratorBus.request(SUBJECTS.toolCall('container'), JSON.stringify(request), {
      timeout: 6000,
      headers,
    });
    return reply.json<Envelope<ToolCallResult>>();
  }

  it('searches the registry and installs with the right sha256; the tool is callable through tools.call at once', async () => {
    const hits = await talon.ok<{ results: { name: string }[] }>('tools.search', {
      query: 'test text-stats',
    });
    expect(JSON.stringify(hits)).toContain('text-stats');
    expect(await talon.ok<{ tools: unknown[] }>('tools.installed', {})).toEqual({ tools: [] });
    const started = Date.now();
    const installed = await talon.ok<{ installed: Summary[] }>('tools.install', { name: 'text-stats' });
    expect(installed.installed[0]).toMatchObject({
      name: 'text-stats',
      version: '0.1.0',
      sha256: await sha256Of(builtComponent('text-stats')),
    });
    await waitUntil(
      async () => (await call('text-stats', { text: 'one two two' })).ok,
      CATALOG_BOUND_MS,
      'text-stats callable',
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    const reply = await call('text-stats', { text: 'alpha beta beta\ngamma' });
    expect(reply.ok).toBe(true);
    expect(JSON.stringify((reply as { data: ToolsCallReply }).data.output)).toContain('"words":4');
    const info = await talon.ok<{ installed: Summary; upgradeAvailable: boolean }>('extensions.info', {
      name: 'text-stats',
    });
    expect(info).toMatchObject({ installed: { name: 'text-stats' }, upgradeAvailable: false });
    expect(await talon.call('tools.install', { name: 'text-stats' })).toMatchObject({
      ok: false,
      error: { code: 'NAME_CONFLICT' },
    });
  }, 60_000);

  it('refuses a wrong sha256, a wrong wit_version, a WASI import and a built-in name with typed errors', async () => {
    expect(await talon.call('tools.install', { name: 'bad-sha' })).toMatchObject({
      ok: false,
      error: { code: 'INTEGRITY_MISMATCH' },
    });
    expect(await talon.call('tools.install', { name: 'bad-wit' })).toMatchObject({
      ok: false,
      error: { code: 'INTEGRITY_MISMATCH', message: expect.stringContaining('0.9.0') },
    });
    expect(await talon.call('tools.install', { name: 'wasi-random' })).toMatchObject({
      ok: false,
      error: { code: 'POLICY_DENIED', message: expect.stringContaining('wasi') },
    });
    expect(await talon.call('tools.install', { name: 'read_file' })).toMatchObject({
      ok: false,
      error: { code: 'NAME_CONFLICT' },
    });
    expect(await talon.call('tools.install', { name: 'no-such-tool' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await talon.call('tools.install', { name: 'Bad Name' })).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
    const names = (await talon.ok<{ tools: Summary[] }>('tools.installed', {})).tools.map(
      (tool) => tool.name,
    );
    expect(names).toEqual(['text-stats']);
    const catalog = await catalogNames();
    for (const refused of ['bad-sha', 'bad-wit', 'wasi-random']) expect(catalog).not.toContain(refused);
    // The built-in still answers as the dev tool.
    await writeFile(join(workspace, 'docs', 'hello.md'), '# Hello\nworkspace text\n');
    expect(
      JSON.stringify(
        (
          await talon.ok<ToolsCallReply>('tools.call', {
            tool: 'read_file',
            params: { path: 'docs/hello.md' },
          })
        ).output,
      ),
    ).toContain('workspace text');
  }, 60_000);

  it('sees a registry entry added while running, in search and extension info', async () => {
    const textStats = builtComponent('text-stats');
    await writeRegistryEntry(registryDir, {
      name: 'late-stats',
      artifact: textStats,
      sha256: await sha256Of(textStats),
      capabilities: join(REPO_ROOT, 'tools-src/text-stats/text-stats.capabilities.json'),
    });
    const search = async () =>
      JSON.stringify(await talon.ok('tools.search', { query: 'late-stats' })).includes('"late-stats"');
    expect(await waitUntil(search, CATALOG_BOUND_MS, 'late-stats in search')).toBeLessThan(CATALOG_BOUND_MS);
    expect(await talon.ok('extensions.info', { name: 'late-stats' })).toMatchObject({
      registry: { name: 'late-stats' },
      upgradeAvailable: false,
    });
  }, 30_000);

  it('stops an infinite loop at its timeout through the full stack, and the next call succeeds', async () => {
    await talon.ok('tools.install', { name: 'probe' });
    await waitUntil(
      async () => (await catalogNames()).includes('probe'),
      CATALOG_BOUND_MS,
      'probe in the catalog',
    );
    const started = Date.now();
    expect(await call('probe', { mode: 'l' })).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(Date.now() - started).toBeLessThan(4_000);
    const next = await call('probe', { mode: 'x' });
    expect(next.ok).toBe(true);
    expect(JSON.stringify((next as { data: ToolsCallReply }).data.output)).toContain('x');
  }, 30_000);

  it('reads the workspace through workspace-read under the allowed prefix only', async () => {
    await talon.ok('tools.install', { name: 'host-probe' });
    await waitUntil(
      async () => (await catalogNames()).includes('host-probe'),
      CATALOG_BOUND_MS,
      'host-probe in the catalog',
    );
    await writeFile(join(workspace, 'docs', 'notes.md'), 'read by a component\n');
    await writeFile(join(workspace, 'private.txt'), 'not for components\n');
    const read = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'host-probe',
      params: { op: 'read', path: 'docs/notes.md' },
    });
    expect(probeOutput(read).ok).toContain('read by a component');
    const outside = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'host-probe',
      params: { op: 'read', path: 'private.txt' },
    });
    expect(probeOutput(outside).err).toMatch(/^denied/);
    const escape = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'host-probe',
      params: { op: 'read', path: 'docs/../../etc/passwd' },
    });
    expect(probeOutput(escape).err).toMatch(/^denied/);
  }, 30_000);

  it('injects a granted credential only for its declared host and never returns it', async () => {
    const before = keyed.requests.length;
    const keyedReply = await callWithGrants('host-probe', {
      op: 'http',
      url: `http://127.0.0.1:${keyed.port}/echo`,
    });
    expect(keyedReply.ok).toBe(true);
    expect(keyed.requests.slice(before).map((request) => request.headers['x-probe-key'])).toEqual([SECRET]);
    // The server echoes the header back; the host scrubs it before the guest sees the body.
    expect(JSON.stringify(keyedReply)).not.toContain(SECRET);
    expect(JSON.stringify(keyedReply)).toContain('[REDACTED]');
    const otherReply = await callWithGrants('host-probe', {
      op: 'http',
      url: `http://localhost:${other.port}/echo`,
    });
    expect(otherReply.ok).toBe(true);
    expect(other.requests.at(-1)?.headers['x-probe-key']).toBeUndefined();
    const denied = await callWithGrants('host-probe', {
      op: 'http',
      url: `http://127.0.0.1:${other.port}/echo`,
    });
    expect(JSON.stringify(denied)).toContain('denied');
    expect(
      await talon.ok<ToolsCallReply>('tools.call', {
        tool: 'host-probe',
        params: { op: 'secret', name: 'probe_key' },
      }),
    ).toMatchObject({ output: { ok: false } });
  }, 30_000);

  it("grants a model's call only the stored secrets the tool declares, and only its declared host receives one", async () => {
    const stored = 'stored-probe-key-7Hq2LmN4pR8sT1vW';
    const undeclared = 'undeclared-key-3Jk9QwE5rT7yU2iO';
    await talon.ok('secrets.set', {
      name: 'probe_key',
      value: stored,
      hostPatterns: ['127.0.0.1', 'localhost'],
      location: { kind: 'header', name: 'X-Probe-Key' },
    });
    await talon.ok('secrets.set', {
      name: 'other_key',
      value: undeclared,
      hostPatterns: ['127.0.0.1', 'localhost'],
      location: { kind: 'header', name: 'X-Probe-Key' },
    });
    const sessionId = (await talon.ok<{ id: string }>('sessions.create', { title: 'wasm credentials' })).id;
    const approvals = client.subscribe(`talon.events.v1.session.${sessionId}`, {
      callback: (_error, message) => {
        const event = message.json<ChatEvent & { approvalId?: string }>();
        if (event.type === 'approval_requested')
          void talon.call('approvals.resolve', { id: event.approvalId, decision: 'approve' });
      },
    });
    const keyedBefore = keyed.requests.length;
    const otherBefore = other.requests.length;
    llm.enqueue(
      {
        toolCalls: [
          { name: 'host-probe', arguments: { op: 'http', url: `http://127.0.0.1:${keyed.port}/model` } },
          { name: 'host-probe', arguments: { op: 'http', url: `http://localhost:${other.port}/model` } },
        ],
      },
      { text: 'Both fetched.' },
    );
    const reply = await talon.ok<ChatSendReply>('chat.send', { sessionId, message: 'fetch both' });
    approvals.unsubscribe();
    expect(reply.content).toBe('Both fetched.');
    expect(keyed.requests.slice(keyedBefore).map((request) => request.headers['x-probe-key'])).toEqual([
      stored,
    ]);
    expect(other.requests.slice(otherBefore).map((request) => request.headers['x-probe-key'])).toEqual([
      undefined,
    ]);
    const toolMessages = (llm.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter(
      (message) => message.role === 'tool',
    );
    expect(toolMessages).toHaveLength(2);
    expect(JSON.stringify(toolMessages)).not.toContain(stored);
    expect(JSON.stringify(toolMessages)).not.toContain(undeclared);

    // The operator's host patterns for the secret no longer cover the tool's declared host: no grant.
    await talon.ok('secrets.set', {
      name: 'probe_key',
      value: stored,
      hostPatterns: ['api.example.com'],
      location: { kind: 'header', name: 'X-Probe-Key' },
    });
    const narrowed = client.subscribe(`talon.events.v1.session.${sessionId}`, {
      callback: (_error, message) => {
        const event = message.json<ChatEvent & { approvalId?: string }>();
        if (event.type === 'approval_requested')
          void talon.call('approvals.resolve', { id: event.approvalId, decision: 'approve' });
      },
    });
    const before = keyed.requests.length;
    llm.enqueue(
      {
        toolCalls: [
          { name: 'host-probe', arguments: { op: 'http', url: `http://127.0.0.1:${keyed.port}/narrowed` } },
        ],
      },
      { text: 'Fetched.' },
    );
    expect(await talon.ok<ChatSendReply>('chat.send', { sessionId, message: 'fetch again' })).toMatchObject({
      content: 'Fetched.',
    });
    narrowed.unsubscribe();
    expect(
      keyed.requests.slice(before).map((request) => [request.path, request.headers['x-probe-key']]),
    ).toEqual([['/narrowed', undefined]]);
  }, 60_000);

  it('invokes an aliased tool back through the orchestrator (tool-invoke)', async () => {
    const reply = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'host-probe',
      params: { op: 'invoke', alias: 'stats', params: { text: 'a b c d e' } },
    });
    expect(JSON.parse(probeOutput(reply).ok as string)).toMatchObject({ words: 5, lines: 1 });
    const unknown = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'host-probe',
      params: { op: 'invoke', alias: 'nope', params: {} },
    });
    expect(probeOutput(unknown).err).toMatch(/^denied/);
  }, 30_000);

  it('upgrades while a call is in flight: the call finishes, new calls run the new version', async () => {
    const v2 = await variantOf(builtComponent('host-probe'), join(base, 'host-probe-v2.wasm'), 'v2');
    const inFlight = call('host-probe', { op: 'http', url: `http://127.0.0.1:${keyed.port}/slow` });
    await waitUntil(
      async () => keyed.requests.some((request) => request.path === '/slow'),
      5_000,
      'the slow request',
    );
    await writeRegistryEntry(registryDir, {
      name: 'host-probe',
      artifact: v2,
      sha256: await sha256Of(v2),
      capabilities: hostProbeCapabilities('v2'),
      version: '0.2.0',
    });
    const upgraded = await talon.ok<{ installed?: Summary; version?: string }>('tools.upgrade', {
      name: 'host-probe',
    });
    expect(JSON.stringify(upgraded)).toContain('0.2.0');
    const finished = await inFlight;
    expect(finished.ok).toBe(true);
    expect(JSON.stringify((finished as { data: ToolsCallReply }).data.output)).toContain('/slow');
    await waitUntil(
      async () =>
        (await talon.ok<ToolsListReply>('tools.list', {})).tools.find(
          (tool) => tool.definition.name === 'host-probe',
        )?.definition.timeoutMs === 6000,
      CATALOG_BOUND_MS,
      'the v2 definition',
    );
    const info = await talon.ok<{ installed: Summary }>('extensions.info', { name: 'host-probe' });
    expect(info.installed).toMatchObject({ version: '0.2.0', sha256: await sha256Of(v2) });
    expect((await call('host-probe', { op: 'now' })).ok).toBe(true);
  }, 60_000);

  it('removes a tool: it leaves the catalog and calls answer UNKNOWN_TOOL', async () => {
    await talon.ok('tools.remove', { name: 'text-stats' });
    const elapsed = await waitUntil(
      async () => (await call('text-stats', { text: 'x' })).ok === false,
      CATALOG_BOUND_MS,
      'text-stats gone',
    );
    expect(elapsed).toBeLessThan(CATALOG_BOUND_MS);
    expect(await call('text-stats', { text: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_TOOL' },
    });
    expect(await talon.call('tools.remove', { name: 'text-stats' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  }, 30_000);

  it('keeps installed tools across a restart of the runner; a restored name a built-in owns is logged, not fatal', async () => {
    await runner.stop();
    // A shared record naming a built-in (as if written by an older build) must not take the name or stop the runner.
    const writer = await nats.connect('wasm-runner');
    try {
      const kv = await new Kvm(writer).open(SHARED_STATE_BUCKETS.wasmTools);
      const probe = (await kv.get('probe'))!.json<Record<string, unknown>>();
      await kv.put('read_file', JSON.stringify({ ...probe, name: 'read_file' }));
    } finally {
      await writer.close();
    }
    runner = await startServiceProcess('wasm-runner', runnerEnv, { timeoutMs: 60_000 });
    const refused = await runner.waitForLog(
      (line) => line.msg === 'wasm tool not registered' && line.tool === 'read_file',
      10_000,
    );
    expect(refused).toMatchObject({ code: 'NAME_CONFLICT' });
    await waitUntil(async () => (await call('probe', { mode: 'y' })).ok, 10_000, 'probe after the restart');
    const names = (await talon.ok<{ tools: Summary[] }>('tools.installed', {})).tools.map(
      (tool) => `${tool.name}@${tool.version}`,
    );
    expect(names).toEqual(expect.arrayContaining(['host-probe@0.2.0', 'probe@0.1.0']));
    expect(
      JSON.stringify(
        (
          await talon.ok<ToolsCallReply>('tools.call', {
            tool: 'read_file',
            params: { path: 'docs/notes.md' },
          })
        ).output,
      ),
    ).toContain('read by a component');
    const read = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'host-probe',
      params: { op: 'read', path: 'docs/notes.md' },
    });
    expect(probeOutput(read).ok).toContain('read by a component');
    expect(await call('text-stats', { text: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_TOOL' },
    });
  }, 90_000);

  describe('dev tools through tools.call', () => {
    it('refuses traversal, absolute paths and symlinks out of the workspace', async () => {
      await symlink('/etc', join(workspace, 'etc-link'));
      for (const path of [
        '../../etc/passwd',
        '/etc/passwd',
        'etc-link/passwd',
        'docs/../../x',
        'docs/\u0000x',
      ]) {
        const reply = await call('read_file', { path });
        expect(reply).toMatchObject({ ok: false });
        expect(['PATH_OUTSIDE_WORKSPACE', 'SCHEMA_VIOLATION']).toContain(
          (reply as { error: { code: string } }).error.code,
        );
      }
      expect(await call('read_file', { path: '../../etc/passwd' })).toMatchObject({
        ok: false,
        error: { code: 'PATH_OUTSIDE_WORKSPACE' },
      });
      expect(await call('write_file', { path: '../escape.txt', content: 'x' })).toMatchObject({
        ok: false,
        error: { code: 'PATH_OUTSIDE_WORKSPACE' },
      });
      expect(await call('list_dir', { path: 'etc-link' })).toMatchObject({
        ok: false,
        error: { code: 'PATH_OUTSIDE_WORKSPACE' },
      });
    }, 30_000);

    it('refuses an apply_patch whose hunk does not apply and leaves every file unchanged', async () => {
      await writeFile(join(workspace, 'a.txt'), 'one\ntwo\nthree\n');
      await writeFile(join(workspace, 'b.txt'), 'alpha\nbeta\n');
      const patch = [
        '--- a/a.txt',
        '+++ b/a.txt',
        '@@ -1,3 +1,3 @@',
        ' one',
        '-two',
        '+TWO',
        ' three',
        '--- a/b.txt',
        '+++ b/b.txt',
        '@@ -1,2 +1,2 @@',
        ' alpha',
        '-not-there',
        '+gamma',
        '',
      ].join('\n');
      expect(await call('apply_patch', { patch })).toMatchObject({
        ok: false,
        error: { code: 'TOOL_FAILED' },
      });
      expect(await readFile(join(workspace, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
      expect(await readFile(join(workspace, 'b.txt'), 'utf8')).toBe('alpha\nbeta\n');
    }, 30_000);
  });
});
