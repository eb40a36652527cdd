import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  bearerHeaders,
  createTestDatabase,
  findFreePort,
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';

const run = promisify(execFile);
const INSPECTOR_CLI = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');
// inspector-cli resolves its package.json against the working directory: run it from its build directory.
const INSPECTOR_OPTIONS = { timeout: 30_000, cwd: dirname(INSPECTOR_CLI) };
const CLI = join(REPO_ROOT, 'apps/cli/dist/main.js');
const MEDIA_SERVER = join(REPO_ROOT, 'libs/mcp/test/fixtures/media-server.mjs');
const PLANTED_KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyzABCDEF0123456789';
const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not seen in ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

describe('Talon as an MCP server: /mcp on the orchestrator and `talon mcp serve`', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let orchestrator: ServiceProcess;
  let worker: ServiceProcess;
  let runner: ServiceProcess;
  let base: string;
  let httpPort: number;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'talon-mcp-server-'));
    // Sandboxed stdio servers run as an unprivileged user, who must be able to reach the bound paths.
    await chmod(base, 0o755);
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    httpPort = await findFreePort();
    url = `http://127.0.0.1:${httpPort}/mcp`;
    orchestrator = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(httpPort),
      TALON_GRPC_PORT: String(await findFreePort()),
    });
    // A server that answers audio (no reference server does), next to the registry's.
    const mcpConfig = join(base, 'mcp.json');
    await writeFile(
      mcpConfig,
      JSON.stringify([
        {
          name: 'media',
          transport: { type: 'stdio', command: process.execPath, args: [MEDIA_SERVER] },
          sandbox: { read_paths: [join(REPO_ROOT, 'libs/mcp'), join(REPO_ROOT, 'node_modules')] },
          effects: [],
          approval: 'never',
        },
      ]),
    );
    [worker, runner] = await Promise.all([
      startServiceProcess('tool-worker', { NATS_URL: nats.url }),
      startServiceProcess('wasm-runner', {
        NATS_URL: nats.url,
        TALON_STATE_DIR: join(base, 'state'),
        TALON_MCP_CONFIG: mcpConfig,
      }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await Promise.all(
      [orchestrator, worker, runner].map((service) => service?.stop().catch(() => undefined)),
    );
    await nats?.stop();
    await database?.drop();
    await rm(base, { recursive: true, force: true });
  });

  async function httpClient(): Promise<Client> {
    const client = new Client({ name: 'talon-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${nats.bootstrapToken}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  /** Resolves the approval an "approval required" result names, as a person would through the API. */
  async function approve(result: unknown): Promise<void> {
    expect((result as CallToolResult).isError).toBe(true);
    const approvalId = /approval id: ([0-9a-f-]{36})/.exec(textOf(result))?.[1];
    expect(approvalId).toBeDefined();
    const resolved = await fetch(`http://127.0.0.1:${httpPort}/v1/rpc/approvals.resolve`, {
      method: 'POST',
      headers: bearerHeaders(nats.bootstrapToken),
      body: JSON.stringify({ id: approvalId, decision: 'approve' }),
    });
    expect(resolved.status).toBe(200);
  }

  const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

  it('serves the live catalog at /mcp and runs calls through the dispatcher', async () => {
    const client = await httpClient();
    await waitFor(async () => (await names(client)).includes('echo'), 10_000, 'echo in the catalog');
    expect(await names(client)).toEqual(
      expect.arrayContaining(['echo', 'mcp_call', 'mcp_list', 'read_file', 'tool_info']),
    );
    const echo = await client.callTool({ name: 'echo', arguments: { message: 'through talon' } });
    expect(echo.isError).toBeFalsy();
    expect(textOf(echo)).toMatch(/^<tool_output name="echo" call_id="[^"]+">/);
    expect(textOf(echo)).toContain('through talon');
  });

  it('redacts a planted key and maps Talon errors to MCP error results', async () => {
    const client = await httpClient();
    const leak = await client.callTool({ name: 'echo', arguments: { message: `key ${PLANTED_KEY}` } });
    expect(textOf(leak)).not.toContain(PLANTED_KEY);
    const invalid = await client.callTool({ name: 'echo', arguments: { message: 42, extra: true } });
    expect(invalid.isError).toBe(true);
    expect(invalid._meta).toMatchObject({ 'talon/errorCode': 'SCHEMA_VIOLATION' });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('sends tools/list_changed when MCP tools join the catalog', async () => {
    const client = await httpClient();
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      notified++;
    });
    expect(await names(client)).not.toContain('everything_echo');
    const call = {
      name: 'mcp_call',
      arguments: { tool: 'everything.echo', arguments: { message: 'nested' } },
    };
    // An MCP client is an agent: mcp_call (external_write) needs a person's approval first.
    const asked = await client.callTool(call);
    expect(asked.isError).toBe(true);
    await approve(asked);
    const called = await client.callTool(call);
    expect(textOf(called)).toContain('nested');
    await waitFor(() => notified > 0, 5_000, 'tools/list_changed');
    expect(await names(client)).toContain('everything_echo');
  });

  it('returns MCP content typed: image content, resource links, embedded resources and structured content', async () => {
    const client = await httpClient();
    await waitFor(
      async () => (await names(client)).includes('everything_get-tiny-image'),
      10_000,
      'everything tools',
    );
    const callApproved = async (name: string, args: Record<string, unknown>) => {
      const first = await client.callTool({ name, arguments: args });
      if (!first.isError) return first as CallToolResult;
      await approve(first);
      return (await client.callTool({ name, arguments: args })) as CallToolResult;
    };
    const image = await callApproved('everything_get-tiny-image', {});
    const png = image.content.find((item) => item.type === 'image') as { data: string; mimeType: string };
    expect(png).toMatchObject({
      mimeType: 'image/png',
      data: expect.stringMatching(/^[A-Za-z0-9+/=]{100,}$/),
    });
    // The text names the image by its artifact reference; the base64 is not inside the text.
    expect(textOf(image)).toMatch(/\[image: image\/png, \d+ bytes, artifact sha256:[0-9a-f]{64}\]/);
    expect(textOf(image)).not.toContain(png.data.slice(0, 40));
    const links = await callApproved('everything_get-resource-links', { count: 2 });
    expect(links.content.filter((item) => item.type === 'resource_link')).toHaveLength(2);
    expect(textOf(links)).toMatch(/\[resource link: .* <demo:\/\/resource/);
    const embedded = await callApproved('everything_get-resource-reference', {
      resourceType: 'Text',
      resourceId: 1,
    });
    expect(embedded.content.find((item) => item.type === 'resource')).toMatchObject({
      resource: { uri: expect.stringMatching(/^demo:\/\//), text: expect.any(String) },
    });
    const structured = await callApproved('everything_get-structured-content', { location: 'Chicago' });
    expect(structured.structuredContent).toEqual(
      expect.objectContaining({ temperature: expect.any(Number) }),
    );
    // The server already puts the JSON in a text item: Talon does not add it a second time.
    expect(textOf(structured).match(/temperature/g)).toHaveLength(1);
  });

  /** The HTTP API, in one place so that an authentication header can be added here. */
  async function rpc(
    method: string,
    body: unknown,
  ): Promise<{ status: number; envelope: { ok: boolean; data?: any; error?: any } }> {
    const response = await fetch(`http://127.0.0.1:${httpPort}/v1/rpc/${method}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: bearerHeaders(nats.bootstrapToken),
    });
    return {
      status: response.status,
      envelope: (await response.json()) as { ok: boolean; data?: any; error?: any },
    };
  }

  it('returns audio as audio content and keeps media as artifacts that artifacts.get gives back to whoever may read them', async () => {
    const client = await httpClient();
    const started = await rpc('mcp.start', { server: 'media' });
    expect(started.envelope).toMatchObject({ ok: true, data: { state: 'running' } });
    await waitFor(async () => (await names(client)).includes('media_tone'), 10_000, 'media tools');
    const tone = (await client.callTool({
      name: 'media_tone',
      arguments: { samples: 400 },
    })) as CallToolResult;
    expect(tone.isError).toBeFalsy();
    const audio = tone.content.find((item) => item.type === 'audio') as { data: string; mimeType: string };
    expect(audio).toMatchObject({ mimeType: 'audio/wav', data: expect.stringMatching(/^UklGR/) });
    const text = textOf(tone);
    expect(text).toContain('A tone of 400 samples.');
    const sha256 = /\[audio: audio\/wav, 444 bytes, artifact sha256:([0-9a-f]{64})\]/.exec(text)?.[1];
    expect(sha256).toBeDefined();
    expect(text).not.toContain(audio.data.slice(0, 40));

    // The reference resolves: the same bytes, their type and size.
    const stored = await rpc('artifacts.get', { sha256 });
    expect(stored.envelope).toMatchObject({
      ok: true,
      data: { sha256, mimeType: 'audio/wav', bytes: 444, data: audio.data },
    });

    // `talon artifacts get` writes the bytes to a file.
    const out = join(base, 'tone.wav');
    const { stdout } = await run(
      process.execPath,
      [CLI, 'artifacts', 'get', `sha256:${sha256}`, '--out', out],
      {
        env: {
          PATH: process.env.PATH ?? '',
          NATS_URL: nats.url,
          NATS_PASSWORD: nats.credentials.api,
          TALON_TOKEN: nats.bootstrapToken,
        },
        timeout: 30_000,
      },
    );
    expect(stdout).toContain(`${sha256}  audio/wav  444 bytes`);
    expect((await readFile(out)).toString('base64')).toBe(audio.data);

    // Through a session: its owner reads the artifact back, another agent token gets NOT_FOUND.
    const owner = (await rpc('tokens.create', { name: 'artifact-owner', scope: 'agent' })).envelope.data
      .token;
    const stranger = (await rpc('tokens.create', { name: 'artifact-stranger', scope: 'agent' })).envelope.data
      .token;
    const asToken = async (token: string, method: string, body: unknown) =>
      (await (
        await fetch(`http://127.0.0.1:${httpPort}/v1/rpc/${method}`, {
          method: 'POST',
          headers: bearerHeaders(token),
          body: JSON.stringify(body),
        })
      ).json()) as { ok: boolean; data?: any; error?: any };
    const session = await asToken(owner, 'sessions.create', { title: 'media' });
    const dot = await asToken(owner, 'tools.call', {
      tool: 'media_dot',
      params: {},
      policy: 'agent',
      sessionId: session.data.id,
    });
    expect(dot).toMatchObject({ ok: true, data: { media: [expect.objectContaining({ type: 'image' })] } });
    const dotSha = dot.data.media[0].sha256 as string;
    expect(dot.data.text).toContain(`artifact sha256:${dotSha}`);
    expect(await asToken(owner, 'artifacts.get', { sha256: dotSha })).toMatchObject({
      ok: true,
      data: { mimeType: 'image/png', data: dot.data.media[0].data },
    });
    expect(await asToken(stranger, 'artifacts.get', { sha256: dotSha })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    // The call without a session stored an artifact only operators read.
    expect(await asToken(owner, 'artifacts.get', { sha256 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect((await rpc('artifacts.get', { sha256: 'A'.repeat(64) })).envelope.error.code).toBe(
      'SCHEMA_VIOLATION',
    );
    expect((await rpc('artifacts.get', { sha256: '0'.repeat(64) })).envelope.error.code).toBe('NOT_FOUND');
  });

  it('serves MCP resources and prompts through the API and mcp_resource_read, and advertises only tools', async () => {
    const client = await httpClient();
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true } });
    const listed = await rpc('mcp.resources.list', { server: 'everything' });
    expect(listed.envelope.ok).toBe(true);
    const resource = (listed.envelope.data.resources as Array<{ uri: string; mimeType?: string }>).find(
      (entry) => entry.mimeType?.startsWith('text/'),
    )!;
    const read = await rpc('mcp.resources.read', { server: 'everything', uri: resource.uri });
    expect(read.envelope.data.contents[0]).toMatchObject({
      type: 'resource',
      uri: resource.uri,
      text: expect.any(String),
    });
    const prompts = await rpc('mcp.prompts.list', { server: 'everything' });
    expect(prompts.envelope.data.prompts.map((prompt: { name: string }) => prompt.name)).toContain(
      'simple-prompt',
    );
    const prompt = await rpc('mcp.prompts.get', { server: 'everything', name: 'simple-prompt' });
    expect(prompt.envelope.data.messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
    const none = await rpc('mcp.resources.list', { server: 'filesystem' });
    expect(none).toMatchObject({ status: 404, envelope: { ok: false, error: { code: 'NOT_FOUND' } } });
    expect((await rpc('mcp.prompts.list', { server: 'nowhere' })).envelope.error.code).toBe('NOT_FOUND');
    expect((await rpc('mcp.resources.read', { server: 'everything' })).envelope.error.code).toBe(
      'SCHEMA_VIOLATION',
    );

    // The model tool: the same read through policy (MCP default approval), rendered once for the model.
    const call = { name: 'mcp_resource_read', arguments: { server: 'everything', uri: resource.uri } };
    const first = await client.callTool(call);
    if (first.isError) await approve(first);
    const result = (await client.callTool(call)) as CallToolResult;
    expect(textOf(result)).toContain(`[resource ${resource.uri}`);
    expect(result.content.find((item) => item.type === 'resource')).toMatchObject({
      resource: { uri: resource.uri },
    });
  });

  it('leaves the Nest HTTP API working next to /mcp', async () => {
    const methods = (await (
      await fetch(`http://127.0.0.1:${httpPort}/v1/methods`, { headers: bearerHeaders(nats.bootstrapToken) })
    ).json()) as {
      data: { name: string }[];
    };
    expect(methods.data.map((method) => method.name)).toEqual(
      expect.arrayContaining(['mcp.call', 'mcp.list', 'mcp.start', 'mcp.stop']),
    );
    const stray = await fetch(`http://127.0.0.1:${httpPort}/mcp/other`, {
      method: 'POST',
      body: '{}',
      headers: bearerHeaders(nats.bootstrapToken),
    });
    expect(stray.status).toBe(404);
    const noSession = await fetch(url, { method: 'GET', headers: bearerHeaders(nats.bootstrapToken) });
    expect(noSession.status).toBe(400);
    // DNS rebinding: a request naming another host is refused before any MCP handling.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      });
      const outgoing = request(
        {
          host: '127.0.0.1',
          port: httpPort,
          path: '/mcp',
          method: 'POST',
          headers: {
            host: `evil.example:${httpPort}`,
            authorization: `Bearer ${nats.bootstrapToken}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
    expect(status).toBe(403);
  });

  it('is usable by @modelcontextprotocol/inspector-cli', async () => {
    const list = await run(
      process.execPath,
      [
        INSPECTOR_CLI,
        '--cli',
        url,
        '--header',
        `Authorization: Bearer ${nats.bootstrapToken}`,
        '--method',
        'tools/list',
      ],
      INSPECTOR_OPTIONS,
    );
    const listed = JSON.parse(list.stdout.slice(list.stdout.indexOf('{'))) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'mcp_list']));
    const call = await run(
      process.execPath,
      [
        INSPECTOR_CLI,
        '--cli',
        url,
        '--header',
        `Authorization: Bearer ${nats.bootstrapToken}`,
        '--method',
        'tools/call',
        '--tool-name',
        'echo',
        '--tool-arg',
        'message=from-inspector',
      ],
      INSPECTOR_OPTIONS,
    );
    expect(call.stdout).toContain('from-inspector');
  }, 60_000);

  it('serves the same catalog over stdio with `talon mcp serve`', async () => {
    const client = new Client({ name: 'talon-stdio-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', 'serve'],
      env: { NATS_URL: nats.url, NATS_PASSWORD: nats.credentials.api, TALON_TOKEN: nats.bootstrapToken },
      stderr: 'pipe',
    });
    await client.connect(transport);
    clients.push(client);
    expect(await names(client)).toEqual(expect.arrayContaining(['echo', 'mcp_list', 'everything_echo']));
    // MCP tools need approval by default (unless_auto_approved): approve once, then the same call runs.
    const echoCall = { name: 'everything_echo', arguments: { message: 'over stdio' } };
    await approve(await client.callTool(echoCall));
    const echo = await client.callTool(echoCall);
    expect(textOf(echo)).toContain('over stdio');
    const listed = await client.callTool({ name: 'mcp_list', arguments: {} });
    expect(textOf(listed)).toContain('"everything"');
    const invalid = await client.callTool({ name: 'echo', arguments: {} });
    expect(invalid).toMatchObject({ isError: true, _meta: { 'talon/errorCode': 'SCHEMA_VIOLATION' } });
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      notified++;
    });
    expect(await names(client)).not.toContain('memory_read_graph');
    const readGraph = { name: 'mcp_call', arguments: { tool: 'memory.read_graph', arguments: {} } };
    await approve(await client.callTool(readGraph));
    await client.callTool(readGraph);
    await waitFor(() => notified > 0, 6_000, 'tools/list_changed over stdio');
    expect(await names(client)).toContain('memory_read_graph');
  });

  it('validates params before asking: a wrong-typed call answers SCHEMA_VIOLATION and creates no approval', async () => {
    const pg = await import('pg');
    const db = new pg.default.Client({ connectionString: database.url });
    await db.connect();
    const approvals = async () =>
      Number((await db.query('SELECT count(*)::int AS n FROM approval')).rows[0].n as number);
    try {
      const before = await approvals();
      const stdio = new Client({ name: 'talon-stdio-validate', version: '1.0.0' });
      await stdio.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, 'mcp', 'serve'],
          env: { NATS_URL: nats.url, NATS_PASSWORD: nats.credentials.api, TALON_TOKEN: nats.bootstrapToken },
          stderr: 'pipe',
        }),
      );
      clients.push(stdio);
      for (const client of [await httpClient(), stdio]) {
        // Both tools would ask a person first (write_file: unless_auto_approved; MCP tools by default).
        for (const call of [
          { name: 'write_file', arguments: { path: ['not', 'a', 'string'], content: 'x' } },
          { name: 'write_file', arguments: { path: 'missing-content.txt' } },
          { name: 'everything_echo', arguments: { message: { nested: 'object' } } },
        ]) {
          const result = await client.callTool(call);
          expect(result).toMatchObject({ isError: true, _meta: { 'talon/errorCode': 'SCHEMA_VIOLATION' } });
        }
      }
      expect(await approvals()).toBe(before);
    } finally {
      await db.end();
    }
  });

  it('`talon mcp serve` explains when NATS is not reachable', async () => {
    const port = await findFreePort();
    const failed = await run(process.execPath, [CLI, 'mcp', 'serve'], {
      env: { ...process.env, NATS_URL: `nats://127.0.0.1:${port}` },
    }).catch((error: { code: number; stderr: string; stdout: string }) => error);
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect((failed as { stderr: string }).stderr).toContain('Cannot reach NATS');
  });
});
