import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Capabilities } from '../src/capabilities.js';
import { ComponentCompiler } from '../src/component-compiler.js';
import { ComponentToolLoader } from '../src/component-tool-loader.js';
import { FetchHostHttpClient } from '../src/fetch-host-http-client.js';
import type { HostHttpClient } from '../src/host-http-client.js';
import { SafeFetchHostHttpClient } from '../src/safe-fetch-host-http-client.js';
import type { HostCallContext } from '../src/host-imports.js';
import type { WasmTool } from '../src/wasm-tool.js';
import { startEchoServer, type EchoServer } from './http-echo-server.js';
import { artifact, buildToolsAndWorker, capabilities, tempDir, toolContext } from './wasm-test-setup.js';

const SECRET = 'sk-talon-very-secret-9f8e7d';

describe('host imports (host-probe component built with componentize-js, real workers, real HTTP on 127.0.0.1)', () => {
  const cache = tempDir('wasm-cache');
  const workspace = tempDir('workspace');
  const outside = tempDir('outside');
  const invoked: { tool: string; params: Record<string, unknown>; callId: string }[] = [];
  let server: EchoServer;
  let loader: ComponentToolLoader;
  const tools: WasmTool[] = [];

  async function probeWith(file: Record<string, unknown>): Promise<WasmTool> {
    const tool = await loader.loadTool('host-probe', {
      bytes: artifact('host-probe'),
      capabilities: capabilities(file),
      version: '1',
    });
    tools.push(tool);
    return tool;
  }

  async function call(tool: WasmTool, params: Record<string, unknown>, grants = toolContext().grants) {
    const context = toolContext({ grants });
    const result = (await tool.execute(params, context)) as { ok?: unknown; err?: string };
    return { ...result, logs: context.logs };
  }

  let denyAll: WasmTool;
  let granted: WasmTool;
  let grantedCaps: Capabilities;

  beforeAll(async () => {
    buildToolsAndWorker();
    server = await startEchoServer({ bigBytes: 200_000 });
    mkdirSync(join(workspace.path, 'docs'));
    mkdirSync(join(workspace.path, 'private'));
    writeFileSync(join(workspace.path, 'docs', 'guide.md'), '# Guide\nHello workspace\n');
    writeFileSync(join(workspace.path, 'private', 'keys.txt'), 'do not read');
    writeFileSync(join(outside.path, 'passwd'), 'root:x:0:0');
    symlinkSync(join(outside.path, 'passwd'), join(workspace.path, 'docs', 'escape.md'));
    symlinkSync(join(workspace.path, 'private', 'keys.txt'), join(workspace.path, 'docs', 'sideways.md'));
    writeFileSync(join(workspace.path, 'docs', 'large.md'), 'y'.repeat(5000));

    loader = new ComponentToolLoader({
      compiler: new ComponentCompiler({ cacheDir: cache.path }),
      host: {
        httpClient: new FetchHostHttpClient(),
        workspaceRoot: workspace.path,
        invokeTool: async (tool: string, params: Record<string, unknown>, host: HostCallContext) => {
          invoked.push({ tool, params, callId: host.callId });
          return { invoked: tool, echo: params };
        },
      },
    });
    const grantedFile = {
      effects: ['network', 'use_secret', 'read_filesystem', 'dispatch_capability'],
      http: {
        allowlist: [{ host: server.host, path_prefix: '/v1/', methods: ['GET', 'POST'] }],
        credentials: [
          {
            secret_name: 'api_token',
            location: { kind: 'header', name: 'X-Api-Key' },
            host_patterns: [server.host],
          },
        ],
        max_response_bytes: 100_000,
        max_request_bytes: 1000,
      },
      secrets: ['api_token', 'unset_secret'],
      workspace: { read_prefixes: ['docs/'], max_read_bytes: 1000 },
      tool_aliases: { stats: 'text-stats' },
      rate_limit: { calls: 1000, per_ms: 60_000 },
    };
    grantedCaps = capabilities(grantedFile);
    [denyAll, granted] = await Promise.all([probeWith({}), probeWith(grantedFile)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(tools.map((tool) => tool.version.pool.close()));
    await server?.close();
    for (const dir of [cache, workspace, outside]) dir.cleanup();
  });

  const grant = [
    {
      secretName: 'api_token',
      value: SECRET,
      hostPatterns: ['127.0.0.1'],
      location: { kind: 'header' as const, name: 'X-Api-Key' },
    },
  ];

  describe('log and now-millis (always available)', () => {
    it('forwards log lines to the call logger', async () => {
      const result = await call(denyAll, { op: 'log', level: 'warn', message: 'from the guest' });
      expect(result.err).toBeUndefined();
      expect(result.logs).toContainEqual({
        level: 'warn',
        message: 'from the guest',
        fields: { source: 'component' },
      });
    });

    it('drops lines below the loader log level inside the worker, and keeps the rest', async () => {
      const quiet = await new ComponentToolLoader({
        compiler: new ComponentCompiler({ cacheDir: cache.path }),
        host: {},
        logLevel: 'warn',
      }).loadTool('host-probe', {
        bytes: artifact('host-probe'),
        capabilities: capabilities({}),
        version: '1',
      });
      tools.push(quiet);
      const levels = ['debug', 'info', 'warn', 'error', 'verbose'];
      const logged = await Promise.all(
        levels.map(async (level) => (await call(quiet, { op: 'log', level, message: level })).logs),
      );
      expect(logged.map((logs) => logs.map((line) => line.level))).toEqual([[], [], ['warn'], ['error'], []]);
      // The default loader (above) keeps every level.
      expect((await call(denyAll, { op: 'log', level: 'debug', message: 'd' })).logs).toEqual([
        { level: 'debug', message: 'd', fields: { source: 'component' } },
      ]);
    });

    it('answers now-millis with the host clock', async () => {
      const before = Date.now();
      const result = await call(denyAll, { op: 'now' });
      expect(result.ok).toBeGreaterThanOrEqual(before);
      expect(result.ok).toBeLessThanOrEqual(Date.now());
    });
  });

  describe('http-request', () => {
    it('is denied when the capabilities grant no HTTP', async () => {
      const result = await call(denyAll, { op: 'http', url: `${server.baseUrl}/v1/x` });
      expect(result.err).toMatch(/^denied: http-request is not granted/);
    });

    it('sends an allowlisted request and returns the response', async () => {
      const result = await call(granted, {
        op: 'http',
        method: 'POST',
        url: `${server.baseUrl}/v1/items?q=1`,
        headers: [['content-type', 'text/plain']],
        body: 'hello',
      });
      const response = result.ok as { status: number; body: string };
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toMatchObject({
        method: 'POST',
        url: '/v1/items?q=1',
        body: 'hello',
      });
    });

    it.each([
      ['another host', 'http://localhost:1/v1/x', 'GET', /host localhost:1 is not in the allowlist/],
      ['a path outside the prefix', '/admin', 'GET', /outside the allowed prefixes/],
      ['a dot-dot escape from the prefix', '/v1/../admin', 'GET', /outside the allowed prefixes/],
      ['an encoded dot-dot escape', '/v1/%2e%2e/admin', 'GET', /outside the allowed prefixes/],
      ['an encoded slash', '/v1%2f..%2fadmin', 'GET', /encoded slashes|outside the allowed/],
      ['a method not listed', '/v1/x', 'DELETE', /method DELETE is not allowed/],
      ['a non-HTTP scheme', 'file:///etc/passwd', 'GET', /scheme file: is not allowed/],
      ['userinfo in the URL', 'http://user:pw@HOST/v1/x', 'GET', /credentials in the URL/],
      ['an unparsable URL', 'not a url', 'GET', /invalid URL/],
    ])('refuses %s', async (_label, target, method, reason) => {
      const url = target.startsWith('/') ? `${server.baseUrl}${target}` : target.replace('HOST', server.host);
      const before = server.received.length;
      const result = await call(granted, { op: 'http', method, url });
      expect(result.err).toMatch(reason);
      expect(server.received.length).toBe(before);
    });

    it('refuses a request body above the byte cap', async () => {
      const result = await call(granted, {
        op: 'http',
        method: 'POST',
        url: `${server.baseUrl}/v1/x`,
        body: 'z'.repeat(2000),
      });
      expect(result.err).toMatch(/request body above 1000 bytes/);
    });

    it('refuses a response above the byte cap', async () => {
      const result = await call(granted, { op: 'http', url: `${server.baseUrl}/v1/big` });
      expect(result.err).toMatch(/exceeds 100000 bytes/);
    });

    it('does not follow redirects', async () => {
      const result = await call(granted, { op: 'http', url: `${server.baseUrl}/v1/redirect` });
      expect((result.ok as { status: number }).status).toBe(302);
      expect(server.received.some((request) => request.url === '/elsewhere')).toBe(false);
    });

    it('injects the credential on the host side; the guest never sees it, even echoed back', async () => {
      const result = await call(
        granted,
        {
          op: 'http',
          url: `${server.baseUrl}/v1/echo`,
          headers: [
            ['X-Api-Key', 'guest-chosen'],
            ['Cookie', 'a=b'],
          ],
        },
        grant,
      );
      const serverSaw = server.received.at(-1)!;
      expect(serverSaw.headers['x-api-key']).toBe(SECRET);
      expect(serverSaw.headers['cookie']).toBeUndefined();
      const guestSaw = JSON.stringify(result);
      expect(guestSaw).not.toContain(SECRET);
      expect(guestSaw).toContain('[REDACTED]');
    });

    it.each([
      [
        'the granted secret percent-encoded in the query',
        (base: string) => ({ url: `${base}/v1/q?x=${encodeURIComponent(encodeURIComponent(SECRET))}` }),
      ],
      [
        'the granted secret base64 in a header',
        (base: string) => ({
          url: `${base}/v1/h`,
          headers: [['x-note', Buffer.from(SECRET).toString('base64')]],
        }),
      ],
      [
        'a key format in a form body',
        (base: string) => ({
          url: `${base}/v1/f`,
          method: 'POST',
          headers: [['content-type', 'application/x-www-form-urlencoded']],
          body: `k=${encodeURIComponent('AKIA\u200BIOSFODNN7EXAMPLE')}`,
        }),
      ],
    ])('refuses %s before it leaves (egress leak scan)', async (_label, build) => {
      const before = server.received.length;
      const result = await call(granted, { op: 'http', ...build(server.baseUrl) }, grant);
      expect(result.err).toMatch(/SECRET_LEAK/);
      expect(result.err).not.toContain(SECRET);
      expect(server.received.length).toBe(before);
    });

    it('sends no credential when the call has no grant for it', async () => {
      await call(granted, { op: 'http', url: `${server.baseUrl}/v1/nogrant` });
      expect(server.received.at(-1)!.headers['x-api-key']).toBeUndefined();
    });

    it('applies the rate limit to outgoing requests', async () => {
      const limited = await probeWith({
        effects: ['network'],
        http: { allowlist: [{ host: server.host, path_prefix: '/v1/', methods: ['GET'] }] },
        rate_limit: { calls: 2, per_ms: 60_000 },
      });
      const results = [];
      for (let index = 0; index < 3; index++)
        results.push(await call(limited, { op: 'http', url: `${server.baseUrl}/v1/rl` }));
      expect(results.map((result) => (result.err ? 'denied' : 'ok'))).toEqual(['ok', 'ok', 'denied']);
      expect(results[2]!.err).toMatch(/rate limit of 2 requests/);
    });
  });

  describe('secret-exists', () => {
    it('is true only for an allowed secret that the call was granted', async () => {
      expect((await call(granted, { op: 'secret', name: 'api_token' }, grant)).ok).toBe(true);
      expect((await call(granted, { op: 'secret', name: 'api_token' })).ok).toBe(false);
      expect((await call(granted, { op: 'secret', name: 'unset_secret' }, grant)).ok).toBe(false);
    });

    it('is false for a secret the capabilities do not list, even when granted', async () => {
      expect((await call(denyAll, { op: 'secret', name: 'api_token' }, grant)).ok).toBe(false);
    });
  });

  describe('workspace-read', () => {
    it('reads a file under an allowed prefix', async () => {
      expect((await call(granted, { op: 'read', path: 'docs/guide.md' })).ok).toBe(
        '# Guide\nHello workspace\n',
      );
    });

    it('is denied when the capabilities grant no workspace prefix', async () => {
      expect((await call(denyAll, { op: 'read', path: 'docs/guide.md' })).err).toMatch(
        /workspace-read is not granted/,
      );
    });

    it.each([
      ['a path outside the prefixes', 'private/keys.txt', /outside the allowed prefixes/],
      ['a dot-dot escape', 'docs/../private/keys.txt', /outside the allowed prefixes/],
      ['an escape from the workspace', '../../etc/passwd', /escapes the workspace/],
      ['an absolute path', '/etc/passwd', /must be relative/],
      ['a NUL byte', 'docs/guide.md\u0000.txt', /NUL byte/],
      ['a symlink out of the workspace', 'docs/escape.md', /resolves outside the workspace/],
      [
        'a symlink to another folder of the workspace',
        'docs/sideways.md',
        /resolves outside the allowed prefixes/,
      ],
      ['a file above the byte cap', 'docs/large.md', /above the cap of 1000/],
      ['a missing file', 'docs/missing.md', /no such file/],
      ['a folder', 'docs', /not a file/],
    ])('refuses %s', async (_label, path, reason) => {
      expect((await call(granted, { op: 'read', path })).err).toMatch(reason);
    });
  });

  describe('tool-invoke', () => {
    it('dispatches a declared alias to its tool with the same call id', async () => {
      const context = toolContext();
      const result = (await granted.execute(
        { op: 'invoke', alias: 'stats', params: { text: 'a b' } },
        context,
      )) as { ok: string };
      expect(JSON.parse(result.ok)).toEqual({ invoked: 'text-stats', echo: { text: 'a b' } });
      expect(invoked.at(-1)).toEqual({ tool: 'text-stats', params: { text: 'a b' }, callId: context.callId });
    });

    it('refuses an undeclared alias and a tool without aliases', async () => {
      const count = invoked.length;
      expect((await call(granted, { op: 'invoke', alias: 'shell', params: {} })).err).toMatch(
        /alias "shell" is not declared/,
      );
      expect((await call(granted, { op: 'invoke', alias: 'constructor', params: {} })).err).toMatch(
        /is not declared/,
      );
      expect((await call(denyAll, { op: 'invoke', alias: 'stats', params: {} })).err).toMatch(
        /is not declared/,
      );
      expect(invoked.length).toBe(count);
    });
  });

  describe('through the SSRF guard (SafeFetchHostHttpClient)', () => {
    let guarded: WasmTool;

    beforeAll(async () => {
      const port = Number(server.host.split(':')[1]);
      const guardedLoader = new ComponentToolLoader({
        compiler: new ComponentCompiler({ cacheDir: cache.path }),
        host: {
          httpClient: new SafeFetchHostHttpClient({ allowlist: [{ cidr: '127.0.0.1', ports: [port] }] }),
        },
      });
      guarded = await guardedLoader.loadTool('host-probe', {
        bytes: artifact('host-probe'),
        version: '1',
        capabilities: capabilities({
          effects: ['network'],
          http: {
            allowlist: ['10.0.0.1', '169.254.169.254', '127.0.0.1', '[::1]'].map((host) => ({
              host,
              path_prefix: '/',
              methods: ['GET'],
            })),
          },
        }),
      });
      tools.push(guarded);
    }, 60_000);

    it('reaches an allowlisted loopback server', async () => {
      const result = await call(guarded, { op: 'http', url: `${server.baseUrl}/v1/guarded` });
      expect((result.ok as { status: number }).status).toBe(200);
      expect(server.received.at(-1)!.url).toBe('/v1/guarded');
    });

    it.each([
      ['a private address', 'http://10.0.0.1/x'],
      ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
      ['a loopback port the operator did not allowlist', 'http://127.0.0.1:1/x'],
      ['IPv6 loopback', 'http://[::1]:1/x'],
    ])('refuses %s even when the capabilities allow the host', async (_label, url) => {
      const result = await call(guarded, { op: 'http', url });
      expect(result.err).toMatch(/^denied: request failed: SSRF_BLOCKED/);
    });
  });

  it('does not send a credential over plain http to a non-loopback host', async () => {
    const rewrite: HostHttpClient = {
      request: (request) =>
        new FetchHostHttpClient().request({
          ...request,
          url: request.url.replace('http://api.example.test', server.baseUrl),
        }),
    };
    const plainLoader = new ComponentToolLoader({
      compiler: new ComponentCompiler({ cacheDir: cache.path }),
      host: { httpClient: rewrite },
    });
    const plain = await plainLoader.loadTool('host-probe', {
      bytes: artifact('host-probe'),
      version: '1',
      capabilities: capabilities({
        effects: ['network', 'use_secret'],
        secrets: ['api_token'],
        http: {
          allowlist: [{ host: 'api.example.test', path_prefix: '/v1/', methods: ['GET'] }],
          credentials: [
            { secret_name: 'api_token', location: { kind: 'bearer' }, host_patterns: ['api.example.test'] },
          ],
        },
      }),
    });
    tools.push(plain);
    const result = await call(plain, { op: 'http', url: 'http://api.example.test/v1/plain' }, [
      { ...grant[0]!, hostPatterns: ['api.example.test'] },
    ]);
    expect((result.ok as { status: number }).status).toBe(200);
    expect(server.received.at(-1)!.headers.authorization).toBeUndefined();
    expect(result.logs).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'credential not sent over plain http' }),
    );
  });

  it('hands the host-side tool config to the guest as request.context', async () => {
    const configured = await loader.loadVersion({
      bytes: artifact('host-probe'),
      capabilities: capabilities({}),
      version: '1',
      config: { base_url: 'https://example.test' },
    });
    const tool = loader.toolFor('host-probe', configured);
    tools.push(tool);
    const result = await call(tool, { op: 'context' });
    expect(JSON.parse(result.ok as string)).toEqual({ config: { base_url: 'https://example.test' } });
  });

  it('keeps the granted capabilities in the definition', () => {
    expect(granted.definition.effects).toEqual(grantedCaps.effects);
    expect(granted.definition.rateLimit).toEqual({ calls: 1000, perMs: 60_000 });
  });
});
