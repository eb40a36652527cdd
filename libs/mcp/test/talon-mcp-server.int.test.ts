import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createServer, type Server as HttpServer } from 'node:http';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TalonError } from '@talon/errors';
import {
  createTalonMcpHttpHandler,
  type TalonMcpHttpHandler,
  type TalonToolCatalog,
  type TalonToolCall,
} from '../src/index.js';
// @ts-expect-error plain JS fixture shared with the stdio child process
import { createTestCatalog } from './fixtures/talon-catalog.mjs';
import { FIXTURES, REPO_ROOT, waitFor } from './support/mcp-test-servers.js';

const run = promisify(execFile);
const INSPECTOR_CLI = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');
// inspector-cli 1.0.3 checks `../package.json` against its working directory but imports it relative to
// its own file: run it from its build directory so both agree.
const INSPECTOR_OPTIONS = { timeout: 30_000, cwd: dirname(INSPECTOR_CLI) };
const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('Talon as an MCP server over streamable HTTP', () => {
  let http: HttpServer;
  let handler: TalonMcpHttpHandler;
  let url: string;
  let fixture: { catalog: TalonToolCatalog; call: TalonToolCall; addTool(name: string): void };
  const clients: { client: Client; transport: StreamableHTTPClientTransport }[] = [];

  const connect = async () => {
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    clients.push({ client, transport });
    return client;
  };
  // A polite client ends its session with DELETE; closing the client alone leaves it to the idle reaper.
  const disconnectAll = () =>
    Promise.all(
      clients.splice(0).map(async ({ client, transport }) => {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }),
    );

  beforeAll(async () => {
    fixture = createTestCatalog(TalonError);
    handler = createTalonMcpHttpHandler({ catalog: fixture.catalog, call: fixture.call, maxSessions: 5 });
    http = createServer((req, res) => void handler.handle(req, res));
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    const address = http.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
  });
  afterAll(async () => {
    await disconnectAll();
    await handler.close();
    await new Promise((done) => http.close(done));
  });

  it('lists the catalog with annotations that describe policy', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'shell', 'boom']));
    const shell = tools.find((tool) => tool.name === 'shell');
    expect(shell?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(tools.find((tool) => tool.name === 'echo')?.inputSchema).toMatchObject({
      type: 'object',
      required: ['message'],
    });
  });

  it('calls a tool through the call function', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('echo: hi');
  });

  it('answers APPROVAL_REQUIRED with a clear tool error carrying the approval id', async () => {
    const client = await connect();
    const result = (await client.callTool({
      name: 'shell',
      arguments: { command: 'rm -rf /tmp/x' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^approval required \(approval id: appr-0042\)/);
    expect(result._meta).toMatchObject({
      'talon/errorCode': 'APPROVAL_REQUIRED',
      'talon/approvalId': 'appr-0042',
    });
  });

  it('hides unexpected errors and refuses unknown tools with a protocol error', async () => {
    const client = await connect();
    const boom = (await client.callTool({ name: 'boom', arguments: {} })) as CallToolResult;
    expect(boom.isError).toBe(true);
    expect(textOf(boom)).toContain('INTERNAL');
    expect(textOf(boom)).not.toContain('hunter2');
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
  });

  it('notifies every session when the catalog changes', async () => {
    const client = await connect();
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      notified += 1;
    });
    // The standalone GET stream carries server-initiated notifications; give it a moment to open.
    await new Promise((done) => setTimeout(done, 200));
    fixture.addTool('http_late_tool');
    await waitFor(() => notified > 0, 5000, 'tools/list_changed');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('http_late_tool');
  });

  it('refuses requests without a session, unknown sessions, other paths and sessions past the cap', async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(new URL(path, url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    expect((await post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(400);
    expect(
      (await post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': 'forged' }))
        .status,
    ).toBe(404);
    expect((await post('/elsewhere', {})).status).toBe(404);
    const broken = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(broken.status).toBe(400);
    while (handler.sessionCount() < 5) await connect();
    await expect(connect()).rejects.toThrow();
  });

  it('is usable by @modelcontextprotocol/inspector-cli (tools/list and tools/call)', async () => {
    // Make room under the session cap used by the previous test.
    await disconnectAll();
    expect(handler.sessionCount()).toBe(0);
    const list = await run(
      process.execPath,
      [INSPECTOR_CLI, '--cli', url, '--method', 'tools/list'],
      INSPECTOR_OPTIONS,
    );
    const listed = JSON.parse(list.stdout.slice(list.stdout.indexOf('{'))) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'shell']));
    const call = await run(
      process.execPath,
      [
        INSPECTOR_CLI,
        '--cli',
        url,
        '--method',
        'tools/call',
        '--tool-name',
        'echo',
        '--tool-arg',
        'message=from-inspector',
      ],
      INSPECTOR_OPTIONS,
    );
    expect(call.stdout).toContain('echo: from-inspector');
  }, 60_000);
});

describe('Talon MCP sessions', () => {
  it('closes sessions whose client vanished without DELETE after the idle time', async () => {
    const fixture = createTestCatalog(TalonError);
    const handler = createTalonMcpHttpHandler({
      catalog: fixture.catalog,
      call: fixture.call,
      sessionIdleMs: 200,
    });
    const http = createServer((req, res) => void handler.handle(req, res));
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    const address = http.address();
    const client = new Client({ name: 'vanishing', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(
          new URL(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`),
        ),
      );
      expect(handler.sessionCount()).toBe(1);
      await waitFor(() => handler.sessionCount() === 0, 5000, 'idle session reaped');
    } finally {
      await client.close();
      await handler.close();
      await new Promise((done) => http.close(done));
    }
  });
});

describe('Talon as an MCP server over stdio', () => {
  let client: Client;

  beforeAll(async () => {
    // The child loads the built library, as `pnpm talon mcp serve` would.
    await run(
      process.execPath,
      [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', join(REPO_ROOT, 'libs/mcp')],
      { cwd: REPO_ROOT, timeout: 120_000 },
    );
    client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(FIXTURES, 'talon-stdio-server.mjs')],
        stderr: 'pipe',
      }),
    );
  }, 150_000);
  afterAll(async () => {
    await client?.close();
  });

  it('lists, calls, reports approval required and notifies list changes', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['echo', 'shell']),
    );
    expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'stdio' } }))).toBe(
      'echo: stdio',
    );
    const approval = (await client.callTool({
      name: 'shell',
      arguments: { command: 'ls' },
    })) as CallToolResult;
    expect(approval.isError).toBe(true);
    expect(textOf(approval)).toContain('approval id: appr-0042');
    let notified = false;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      notified = true;
    });
    await client.callTool({ name: 'add_tool', arguments: {} });
    await waitFor(() => notified, 5000, 'tools/list_changed over stdio');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('late_tool');
  });

  it('is usable by @modelcontextprotocol/inspector-cli over stdio', async () => {
    const list = await run(
      process.execPath,
      [
        INSPECTOR_CLI,
        '--cli',
        process.execPath,
        join(FIXTURES, 'talon-stdio-server.mjs'),
        '--method',
        'tools/list',
      ],
      INSPECTOR_OPTIONS,
    );
    expect(list.stdout).toContain('"echo"');
  }, 60_000);
});
