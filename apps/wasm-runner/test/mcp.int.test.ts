import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type {
  CatalogTool,
  McpServerView,
  McpViewListReply,
  SystemStatus,
  ToolsCallReply,
  ToolsListReply,
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

const HOSTILE = join(REPO_ROOT, 'libs/mcp/test/fixtures/hostile-server.mjs');
const PLANTED_KEY = 'sk-proj-T4lonPlantedKey0123456789abcdefghijklmnopqrstuvwxyz';
const IDLE_MS = 2_500;

describe('stdio MCP servers in the wasm-runner, called through the orchestrator', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let client: NatsConnection;
  let talon: TalonApiClient;
  let orchestrator: ServiceProcess;
  let runner: ServiceProcess;
  let base: string;
  let workspace: string;
  let runnerEnv: Record<string, string>;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'talon-wasm-mcp-'));
    // As root the sandbox user must reach the state directory below this temp dir.
    await chmod(base, 0o755);
    workspace = join(base, 'state', 'workspace');
    await mkdir(workspace, { recursive: true });
    const userConfig = join(base, 'mcp.json');
    await writeFile(
      userConfig,
      JSON.stringify([
        {
          name: 'hostile',
          transport: { type: 'stdio', command: process.execPath, args: [HOSTILE] },
          sandbox: { read_paths: [join(REPO_ROOT, 'libs/mcp'), join(REPO_ROOT, 'node_modules')] },
          effects: ['network'],
          call_timeout_ms: 1500,
          restart: { max_restarts: 5, window_ms: 60000, initial_delay_ms: 100, max_delay_ms: 500 },
        },
      ]),
    );
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    orchestrator = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(await findFreePort()),
      TALON_GRPC_PORT: String(await findFreePort()),
    });
    runnerEnv = {
      NATS_URL: nats.url,
      TALON_STATE_DIR: join(base, 'state'),
      TALON_MCP_CONFIG: userConfig,
      TALON_MCP_IDLE_MS: String(IDLE_MS),
      TALON_MCP_MAX_RUNNING: '3',
    };
    runner = await startServiceProcess('wasm-runner', runnerEnv);
    talon = await connectTalonApi(nats.url);
    client = talon.connection;
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all([orchestrator, runner].map((service) => service?.stop().catch(() => undefined)));
    await nats?.stop();
    await database?.drop();
    await rm(base, { recursive: true, force: true });
  });

  const server = async (name: string) =>
    (await talon.ok<McpViewListReply>('mcp.list', {})).servers.find((entry) => entry.name === name)!;
  const catalogNames = async () =>
    (await talon.ok<ToolsListReply>('tools.list', {})).tools.map((tool) => tool.definition.name);

  it('lists the registry and user servers in the container domain, none started at boot', async () => {
    const { servers } = await talon.ok<McpViewListReply>('mcp.list', {});
    expect(servers.map((entry) => entry.name)).toEqual(['everything', 'filesystem', 'hostile', 'memory']);
    for (const entry of servers)
      expect(entry).toMatchObject({ domain: 'container', transport: 'stdio', state: 'stopped' });
    // Each stdio server shows the sandbox it runs in: what it may read, write and reach.
    expect(servers.find((entry) => entry.name === 'filesystem')?.sandbox).toMatchObject({
      readPaths: [join(REPO_ROOT, 'node_modules')],
      writePaths: [workspace],
      network: { mode: 'none' },
    });
    expect(await catalogNames()).toEqual(
      expect.arrayContaining(['mcp_call', 'mcp_list', 'mcp_start', 'mcp_stop']),
    );
  });

  it('reports in system.status that the wasm-runner sandboxes its processes with bubblewrap', async () => {
    const status = await talon.ok<SystemStatus>('system.status', {});
    const instances = status.services.find((entry) => entry.service === 'wasm-runner')?.instances ?? [];
    expect(instances[0]?.sandbox).toMatchObject({
      mode: 'bubblewrap',
      detail: expect.stringContaining('bubblewrap'),
    });
    // A person approving a command can see what it may touch.
    const shell = await talon.ok<CatalogTool>('tools.info', { name: 'shell' });
    expect(shell.definition.sandbox).toMatchObject({ writePaths: [workspace], network: { mode: 'none' } });
  });

  it('starts a server on the first mcp.call and then offers its tools in the catalog', async () => {
    const reply = await talon.ok<ToolsCallReply>('mcp.call', {
      tool: 'everything.echo',
      arguments: { message: 'hello talon' },
    });
    expect(reply.tool).toBe('everything_echo');
    expect(reply.text).toContain('hello talon');
    expect(reply.instanceId).toBeDefined();
    await waitUntil(
      async () => (await catalogNames()).includes('everything_get-sum'),
      5_000,
      'everything tools in the catalog',
    );
    const direct = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'everything_get-sum',
      params: { a: 40, b: 2 },
    });
    expect(direct.text).toContain('42');
    expect(await server('everything')).toMatchObject({ state: 'running', pid: expect.any(Number) });
  });

  it('validates arguments against the server schema and reports unknown servers and tools', async () => {
    const invalid = await talon.call('tools.call', {
      tool: 'everything_get-sum',
      params: { a: 'forty', b: 2 },
    });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'SCHEMA_VIOLATION' } });
    expect(await talon.call('mcp.call', { tool: 'nowhere.echo', arguments: {} })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await talon.call('mcp.call', { tool: 'everything.no-such-tool', arguments: {} })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_TOOL' },
    });
    expect(await talon.call('mcp.start', { server: 'bad name!' })).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
  });

  it('reads and writes the workspace with server-filesystem and refuses paths outside it', async () => {
    await writeFile(join(workspace, 'note.txt'), 'filesystem via talon\n');
    const read = await talon.ok<ToolsCallReply>('mcp.call', {
      tool: 'filesystem.read_text_file',
      arguments: { path: join(workspace, 'note.txt') },
    });
    expect(read.text).toContain('filesystem via talon');
    await talon.ok('tools.call', {
      tool: 'filesystem_write_file',
      params: { path: join(workspace, 'out.txt'), content: 'written through NATS' },
    });
    expect(await readFile(join(workspace, 'out.txt'), 'utf8')).toBe('written through NATS');
    expect(
      await talon.call('tools.call', { tool: 'filesystem_read_text_file', params: { path: '/etc/passwd' } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'TOOL_FAILED' },
    });
  });

  it('keeps a knowledge graph with server-memory through the mcp_call tool', async () => {
    const created = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'mcp_call',
      params: {
        tool: 'memory.create_entities',
        arguments: { entities: [{ name: 'Talon', entityType: 'project', observations: ['serves MCP'] }] },
      },
    });
    expect(created.tool).toBe('mcp_call');
    const found = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'memory_search_nodes',
      params: { query: 'Talon' },
    });
    expect(found.text).toContain('serves MCP');
  });

  it('redacts a key planted in a hostile server’s output and times out a tool that never answers', async () => {
    const leak = await talon.ok<ToolsCallReply>('mcp.call', { tool: 'hostile.leak', arguments: {} });
    expect(leak.text).not.toContain(PLANTED_KEY);
    expect(JSON.stringify(leak.output)).not.toContain(PLANTED_KEY);
    expect(leak.redactions).toContain('openai_api_key');
    const started = Date.now();
    const hang = await talon.call('tools.call', { tool: 'hostile_hang', params: {} });
    expect(hang).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(Date.now() - started).toBeLessThan(10_000);
    const info = await talon.ok<{ definition: { approval: string } }>('tools.info', { name: 'hostile_wipe' });
    expect(info.definition.approval).toBe('always');
  });

  it('reflects notifications/tools/list_changed in the orchestrator catalog', async () => {
    expect(await catalogNames()).not.toContain('hostile_extra');
    await talon.ok('tools.call', { tool: 'hostile_add_tool', params: {} });
    await waitUntil(
      async () => (await catalogNames()).includes('hostile_extra'),
      5_000,
      'hostile_extra in the catalog',
    );
    const extra = await talon.ok<ToolsCallReply>('tools.call', { tool: 'hostile_extra', params: {} });
    expect(extra.text).toContain('extra tool answered');
  });

  it('marks a crashed server with its stderr and restarts it', async () => {
    const before = (await server('hostile')).restarts;
    const crash = await talon.call('tools.call', { tool: 'hostile_crash', params: {} });
    expect(crash.ok).toBe(false);
    await waitUntil(async () => (await server('hostile')).restarts > before, 10_000, 'hostile restarted');
    const after = await server('hostile');
    expect(after.lastStderr.join('\n')).toContain('fatal: hostile crash requested');
    expect(after.lastError).toBeDefined();
    await waitUntil(
      async () => (await server('hostile')).state === 'running',
      10_000,
      'hostile running again',
    );
    expect(
      (await talon.ok<ToolsCallReply>('tools.call', { tool: 'hostile_echo', params: { message: 'back' } }))
        .text,
    ).toContain('hostile echo: back');
  });

  it('starts and stops servers with mcp_start/mcp_stop and stops idle ones by itself', async () => {
    const stopped = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'mcp_stop',
      params: { server: 'memory' },
    });
    expect((stopped.output as McpServerView).state).toBe('stopped');
    expect(await catalogNames()).toContain('memory_read_graph');
    const started = await talon.ok<McpServerView>('mcp.start', { server: 'memory' });
    expect(started).toMatchObject({ state: 'running', domain: 'container' });
    expect(started.toolCount).toBeGreaterThan(3);
    const listed = await talon.ok<ToolsCallReply>('tools.call', { tool: 'mcp_list', params: {} });
    expect(listed.text).toContain('"memory"');
    // All four servers have run by now; the cap of three holds.
    const running = (await talon.ok<McpViewListReply>('mcp.list', {})).servers.filter(
      (entry) => entry.state === 'running',
    );
    expect(running.length).toBeLessThanOrEqual(3);
    expect(
      (
        await talon.ok<ToolsCallReply>('tools.call', {
          tool: 'everything_echo',
          params: { message: 'again' },
        })
      ).text,
    ).toContain('again');
    expect((await server('everything')).state).toBe('running');
    const lastCall = Date.now();
    await waitUntil(
      async () => (await server('everything')).state === 'stopped',
      IDLE_MS + 5_000,
      'everything stopped when idle',
    );
    expect(Date.now() - lastCall).toBeGreaterThanOrEqual(IDLE_MS - 200);
    expect(await readFile(join(base, 'state', 'mcp-data', 'memory', 'mcp-memory.jsonl'), 'utf8')).toContain(
      'serves MCP',
    );
  });

  it('remembers tool lists across a restart: tools are offered at once and no server starts at boot', async () => {
    await runner.stop();
    await waitUntil(
      async () => !(await catalogNames()).includes('everything_echo'),
      5_000,
      'everything tools withdrawn',
    );
    const snapshot = JSON.parse(await readFile(join(base, 'state', 'mcp-tools.json'), 'utf8')) as Record<
      string,
      unknown[]
    >;
    expect(Object.keys(snapshot).sort()).toEqual(['everything', 'filesystem', 'hostile', 'memory']);
    runner = await startServiceProcess('wasm-runner', runnerEnv);
    await waitUntil(
      async () => (await catalogNames()).includes('everything_echo'),
      5_000,
      'remembered tools in the catalog',
    );
    for (const entry of (await talon.ok<McpViewListReply>('mcp.list', {})).servers)
      expect(entry.state).toBe('stopped');
    expect(
      (
        await talon.ok<ToolsCallReply>('tools.call', {
          tool: 'everything_echo',
          params: { message: 'cold start' },
        })
      ).text,
    ).toContain('cold start');
  });
});
