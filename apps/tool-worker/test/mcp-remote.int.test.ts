import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { McpServerView, McpViewListReply, ToolsCallReply, ToolsListReply } from '@talon/contracts';
import {
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
  connectTalonApi,
  waitUntil,
  type TalonApiClient,
} from '@talon/testing';
import { startEverything } from './support/everything-http-server.js';

describe('remote MCP servers in every tool-worker, called through the orchestrator', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let client: NatsConnection;
  let talon: TalonApiClient;
  let orchestrator: ServiceProcess;
  const workers: ServiceProcess[] = [];
  const servers: ChildProcess[] = [];
  let base: string;
  let httpPort: number;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'talon-remote-mcp-'));
    httpPort = await findFreePort();
    const [ssePort, gonePort] = [await findFreePort(), await findFreePort()];
    servers.push(await startEverything('streamableHttp', httpPort), await startEverything('sse', ssePort));
    const userConfig = join(base, 'mcp.json');
    await writeFile(
      userConfig,
      JSON.stringify([
        {
          name: 'remote',
          transport: { type: 'streamable-http', url: `http://127.0.0.1:${httpPort}/mcp` },
          effects: ['network'],
          health_interval_ms: 300,
          restart: { max_restarts: 20, window_ms: 60000, initial_delay_ms: 100, max_delay_ms: 400 },
        },
        {
          name: 'legacy',
          transport: { type: 'sse', url: `http://127.0.0.1:${ssePort}/sse` },
          effects: ['network'],
        },
        {
          name: 'gone',
          transport: { type: 'streamable-http', url: `http://127.0.0.1:${gonePort}/mcp` },
          connect_timeout_ms: 2000,
          restart: { max_restarts: 1, window_ms: 60000, initial_delay_ms: 60000, max_delay_ms: 60000 },
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
    const env = {
      NATS_URL: nats.url,
      TALON_MCP_CONFIG: userConfig,
      TALON_STATE_DIR: join(base, 'state'),
      // The MCP servers listen on loopback, which the SSRF guard refuses unless allowlisted.
      TALON_SSRF_ALLOWLIST: '127.0.0.1/32',
    };
    workers.push(...(await Promise.all([1, 2].map(() => startServiceProcess('tool-worker', env)))));
    talon = await connectTalonApi(nats.url);
    client = talon.connection;
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all([orchestrator, ...workers].map((service) => service?.stop().catch(() => undefined)));
    for (const server of servers) server.kill('SIGTERM');
    await nats?.stop();
    await database?.drop();
    await rm(base, { recursive: true, force: true });
  });

  const view = async (name: string) =>
    (await talon.ok<McpViewListReply>('mcp.list', {})).servers.find((entry) => entry.name === name)!;

  it('connects every replica to the remote servers and merges their states', async () => {
    await waitUntil(
      async () =>
        (await view('remote'))?.instances.filter((instance) => instance.state === 'running').length === 2,
      20_000,
      'remote running on both workers',
    );
    const remote = await view('remote');
    expect(remote).toMatchObject({ domain: 'orchestrator', transport: 'streamable-http', state: 'running' });
    expect(remote.instances.map((instance) => instance.instanceId).sort()).toEqual(
      workers.map((worker) => String(worker.logs.find((line) => line.msg === 'ready')?.instance)).sort(),
    );
    await waitUntil(async () => (await view('gone'))?.state === 'down', 10_000, 'gone marked down');
    expect((await view('gone')).lastError).toMatch(/gone/);
  });

  it('calls server-everything over streamable HTTP and SSE through the tool-workers', async () => {
    const listed = await talon.ok<ToolsListReply>('tools.list', {});
    const echo = listed.tools.find((tool) => tool.definition.name === 'remote_echo');
    expect(echo).toMatchObject({
      definition: { domain: 'orchestrator', source: 'mcp', displayName: 'remote.echo' },
    });
    expect(echo!.instances).toHaveLength(2);
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const reply = await talon.ok<ToolsCallReply>('tools.call', {
        tool: 'remote_echo',
        params: { message: `over http ${i}` },
      });
      expect(reply.text).toContain(`over http ${i}`);
      seen.add(reply.instanceId!);
    }
    expect(seen.size).toBeGreaterThanOrEqual(1);
    const sse = await talon.ok<ToolsCallReply>('mcp.call', {
      tool: 'legacy.get-sum',
      arguments: { a: 2, b: 3 },
    });
    expect(sse.text).toContain('5');
    expect(await talon.call('tools.call', { tool: 'remote_get-sum', params: { a: 'two' } })).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
  });

  it('stops and starts a remote server on every replica and reports a failed start', async () => {
    const stopped = await talon.ok<McpServerView>('mcp.stop', { server: 'remote' });
    expect(stopped.instances).toHaveLength(2);
    for (const instance of stopped.instances) expect(instance.state).toBe('stopped');
    const started = await talon.ok<McpServerView>('mcp.start', { server: 'remote' });
    expect(started.instances.map((instance) => instance.state)).toEqual(['running', 'running']);
    expect(started.toolCount).toBeGreaterThan(5);
    const failed = await talon.call('mcp.start', { server: 'gone' });
    expect(failed).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(await talon.call('mcp.stop', { server: 'nowhere' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it('notices a remote server going away (health check) and reconnects every replica when it returns', async () => {
    const http = servers[0]!;
    const exited = new Promise((resolve) => http.once('exit', resolve));
    http.kill('SIGTERM');
    await exited;
    await waitUntil(
      async () => (await view('remote')).instances.every((instance) => instance.state !== 'running'),
      10_000,
      'remote not running',
    );
    expect(
      await talon.call('tools.call', { tool: 'remote_echo', params: { message: 'while away' } }),
    ).toMatchObject({ ok: false });
    servers[0] = await startEverything('streamableHttp', httpPort);
    await waitUntil(
      async () => (await view('remote')).instances.every((instance) => instance.state === 'running'),
      20_000,
      'remote running again',
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await view('remote'))}`);
    });
    expect((await view('remote')).restarts).toBeGreaterThan(0);
    const back = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'remote_echo',
      params: { message: 'back again' },
    });
    expect(back.text).toContain('back again');
  }, 60_000);
});
