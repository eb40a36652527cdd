import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

import {
  mcpSecretsSubject,
  type Envelope,
  type McpServerView,
  type McpViewListReply,
  type ToolsCallReply,
} from '@talon/contracts';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TalonApiClient,
  type TestDatabase,
} from '@talon/testing';
import { startProtectedMcpServer, type ProtectedMcpServer } from './support/protected-mcp-server.js';

const BEARER_TOKEN = `bearer-${Date.now().toString(36)}-correct`;

describe('remote MCP servers with bearer and OAuth credentials kept in the orchestrator', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let talon: TalonApiClient;
  let orchestrator: ServiceProcess;
  const workers: ServiceProcess[] = [];
  let bearer: ProtectedMcpServer;
  let oauth: ProtectedMcpServer;
  let noMetadata: ProtectedMcpServer;
  let base: string;
  let redirectBase: string;
  let workerEnv: Record<string, string>;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'talon-remote-mcp-auth-'));
    [bearer, oauth, noMetadata] = await Promise.all([
      startProtectedMcpServer({ auth: 'bearer', token: BEARER_TOKEN }),
      startProtectedMcpServer({ auth: 'oauth' }),
      startProtectedMcpServer({ auth: 'oauth-without-metadata' }),
    ]);
    const userConfig = join(base, 'mcp.json');
    const once = { max_restarts: 1, window_ms: 60000, initial_delay_ms: 60000, max_delay_ms: 60000 };
    await writeFile(
      userConfig,
      JSON.stringify([
        {
          name: 'secured',
          transport: { type: 'streamable-http', url: bearer.mcpUrl },
          auth: { type: 'bearer', secret: 'secured-token' },
          effects: ['network'],
          restart: once,
        },
        {
          name: 'signin',
          transport: { type: 'streamable-http', url: oauth.mcpUrl },
          auth: { type: 'oauth', client_name: 'Talon test', scopes: ['tools'] },
          effects: ['network'],
          restart: once,
        },
        {
          name: 'nometa',
          transport: { type: 'streamable-http', url: noMetadata.mcpUrl },
          auth: { type: 'oauth' },
          effects: ['network'],
          restart: once,
        },
      ]),
    );
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    const shared = { NATS_URL: nats.url, TALON_MCP_CONFIG: userConfig, TALON_STATE_DIR: join(base, 'state') };
    const httpPort = await findFreePort();
    orchestrator = await startServiceProcess('orchestrator', {
      ...shared,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(httpPort),
      TALON_GRPC_PORT: String(await findFreePort()),
    });
    // The orchestrator's own callback page, as by default.
    redirectBase = `http://127.0.0.1:${httpPort}/mcp/oauth/callback`;
    // The MCP and OAuth servers listen on loopback, which the SSRF guard refuses unless allowlisted.
    workerEnv = {
      ...shared,
      TALON_MCP_OAUTH_REDIRECT_URL: redirectBase,
      TALON_SSRF_ALLOWLIST: '127.0.0.1/32',
    };
    // Two replicas: each starts its own authorization; the person finishes one of them.
    workers.push(...(await Promise.all([1, 2].map(() => startServiceProcess('tool-worker', workerEnv)))));
    talon = await connectTalonApi(nats.url);
  }, 120_000);

  afterAll(async () => {
    await talon?.close();
    await workerBus?.close();
    await Promise.all([orchestrator, ...workers].map((service) => service?.stop().catch(() => undefined)));
    await Promise.all([bearer, oauth, noMetadata].map((server) => server?.close()));
    await nats?.stop();
    await database?.drop();
    await rm(base, { recursive: true, force: true });
  });

  const view = async (name: string) =>
    (await talon.ok<McpViewListReply>('mcp.list', {})).servers.find((entry) => entry.name === name)!;
  // Asked as a tool-worker would: only that NATS user may request MCP credentials.
  let workerBus: NatsConnection | undefined;
  const secretsRequest = async (operation: 'get' | 'set' | 'delete', payload: unknown) =>
    (
      await (workerBus ??= await nats.connect('tool-worker')).request(
        mcpSecretsSubject(operation),
        JSON.stringify(payload),
        {
          timeout: 5_000,
        },
      )
    ).json<Envelope<{ value?: string }>>();

  it('refuses to start a bearer server whose secret is missing, and says which secret to set', async () => {
    const reply = await talon.call<McpServerView>('mcp.start', { server: 'secured' });
    expect(reply).toMatchObject({
      ok: false,
      error: {
        code: 'SCHEMA_VIOLATION',
        message: expect.stringContaining('"secured-token", which is not set'),
      },
    });
    expect(await view('secured')).toMatchObject({
      state: 'down',
      lastError: expect.stringContaining('secured-token'),
    });
    expect(bearer.authorizations).toEqual([]);
  });

  it('reports a wrong bearer secret as a failed start with the HTTP 401', async () => {
    await talon.ok('secrets.set', { name: 'secured-token', value: 'not-the-token' });
    const reply = await talon.call<McpServerView>('mcp.start', { server: 'secured' });
    expect(reply).toMatchObject({
      ok: false,
      error: {
        code: 'UNAVAILABLE',
        message: expect.stringContaining("refused Talon's credentials (HTTP 401): check the bearer secret"),
      },
    });
    expect(bearer.authorizations).toContain('Bearer not-the-token');
  });

  it('signs in with the stored bearer secret: tools are listed and callable through tools.call', async () => {
    await talon.ok('secrets.set', { name: 'secured-token', value: BEARER_TOKEN });
    const started = await talon.ok<McpServerView>('mcp.start', { server: 'secured' });
    expect(started).toMatchObject({ state: 'running', tools: ['whoami'], domain: 'orchestrator' });
    const reply = await talon.ok<ToolsCallReply>('tools.call', { tool: 'secured_whoami', params: {} });
    expect(reply.text).toContain('authorized as bearer caller');
    expect(bearer.authorizations.at(-1)).toBe(`Bearer ${BEARER_TOKEN}`);
    for (const service of [orchestrator, ...workers])
      expect(JSON.stringify(service.logs)).not.toContain(BEARER_TOKEN);
  });

  it('serves only the secrets MCP server definitions reference on talon.mcp.v1.credentials.*', async () => {
    await talon.ok('secrets.set', {
      name: 'unrelated-api-key',
      value: 'sk-unrelated',
      hostPatterns: ['api.example.com'],
    });
    expect(await secretsRequest('get', { name: 'unrelated-api-key' })).toMatchObject({
      ok: false,
      error: { code: 'POLICY_DENIED' },
    });
    expect(await secretsRequest('get', { name: 'mcp/oauth/secured/tokens' })).toMatchObject({
      ok: false,
      error: { code: 'POLICY_DENIED' },
    });
    expect(await secretsRequest('get', { name: 'mcp/oauth/signin/../../unrelated-api-key' })).toMatchObject({
      ok: false,
      error: { code: 'POLICY_DENIED' },
    });
    expect(await secretsRequest('set', { name: 'secured-token', value: 'overwritten' })).toMatchObject({
      ok: false,
      error: { code: 'POLICY_DENIED' },
    });
    expect(await secretsRequest('delete', { name: 'secured-token' })).toMatchObject({
      ok: false,
      error: { code: 'POLICY_DENIED' },
    });
    expect(await secretsRequest('get', { name: 'secured-token', extra: true })).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
    // Inside the trust boundary a referenced bearer secret is readable: that is how a worker signs in.
    expect(await secretsRequest('get', { name: 'secured-token' })).toEqual({
      ok: true,
      data: { value: BEARER_TOKEN },
    });
    expect(await secretsRequest('get', { name: 'mcp/oauth/signin/nothing' })).toMatchObject({
      ok: false,
      error: { code: 'POLICY_DENIED' },
    });
  });

  it('runs OAuth discovery, dynamic registration and PKCE, then mcp.authorize stores encrypted tokens', async () => {
    const started = await talon.call<McpServerView>('mcp.start', { server: 'signin' });
    expect(started).toMatchObject({
      ok: false,
      error: { code: 'POLICY_DENIED', details: { authorizationUrl: expect.any(String) } },
    });
    const listed = await view('signin');
    expect(listed).toMatchObject({ state: 'down', authorizationUrl: expect.stringContaining('/authorize?') });
    const authorizationUrl = new URL(listed.authorizationUrl!);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`${redirectBase}/signin`);
    expect(oauth.requests).toEqual(
      expect.arrayContaining([
        'GET /.well-known/oauth-protected-resource/mcp',
        'GET /.well-known/oauth-authorization-server',
        'POST /register',
      ]),
    );
    // Both replicas wait, each with its own PKCE verifier and state (and its own registration unless the
    // other one's was stored before it looked).
    expect(listed.instances.map((instance) => instance.state)).toEqual(['down', 'down']);
    expect([1, 2]).toContain(oauth.requests.filter((request) => request === 'POST /register').length);

    // A person approves; the authorization server redirects to Talon's callback with a code and the state.
    const approval = await fetch(authorizationUrl, { redirect: 'manual' });
    const callback = new URL(approval.headers.get('location') ?? '');
    const code = callback.searchParams.get('code') ?? '';
    const state = callback.searchParams.get('state') ?? '';
    expect(await talon.call('mcp.authorize', { server: 'signin', code, state: `${state}x` })).toMatchObject({
      ok: false,
      error: { code: 'POLICY_DENIED', message: expect.stringContaining('state') },
    });
    expect(oauth.requests).not.toContain('POST /token');

    const authorized = await talon.ok<McpServerView>('mcp.authorize', { server: 'signin', code, state });
    expect(authorized).toMatchObject({ state: 'running', tools: ['whoami'] });
    // The other replica signs in with the stored tokens. The reply holds the replicas that answered
    // within its gathering window; a slower one's sign-in shows in the list soon after.
    await waitUntil(
      async () =>
        (await view('signin')).instances.filter((instance) => instance.state === 'running').length === 2,
      20_000,
      'signin running on both workers',
    );
    expect(authorized.authorizationUrl).toBeUndefined();
    const reply = await talon.ok<ToolsCallReply>('tools.call', { tool: 'signin_whoami', params: {} });
    expect(reply.text).toMatch(/authorized as client-/);
    // The code was used once: the same redirect cannot be replayed.
    expect(await talon.call('mcp.authorize', { server: 'signin', code, state })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });

    const accessToken = oauth.issuedTokens.at(-1)!;
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const rows = (
        await db.query<{ name: string; sealed: string; host_patterns: unknown }>(
          'SELECT name, sealed, host_patterns FROM secret ORDER BY name',
        )
      ).rows;
      const tokens = rows.find((row) => row.name === 'mcp.oauth.signin.tokens');
      expect(tokens).toBeDefined();
      expect(tokens!.host_patterns).toEqual([]);
      expect(rows.map((row) => row.name)).toEqual(
        expect.arrayContaining(['mcp.oauth.signin.client', 'mcp.oauth.signin.tokens']),
      );
      for (const row of rows) {
        expect(row.sealed).not.toContain(accessToken);
        expect(row.sealed).not.toContain(BEARER_TOKEN);
      }
    } finally {
      await db.end();
    }
    for (const service of [orchestrator, ...workers]) {
      expect(JSON.stringify(service.logs)).not.toContain(accessToken);
      expect(JSON.stringify(service.logs)).not.toContain(code);
    }
  });

  it("finishes an authorization when the browser follows the redirect to the orchestrator's callback page", async () => {
    // Signing out: the tokens are deleted, and the next start asks for a new authorization.
    await talon.ok('secrets.delete', { name: 'mcp.oauth.signin.tokens' });
    await talon.ok('mcp.stop', { server: 'signin' });
    expect(await talon.call('mcp.start', { server: 'signin' })).toMatchObject({
      ok: false,
      error: { code: 'POLICY_DENIED' },
    });
    const authorizationUrl = new URL((await view('signin')).authorizationUrl!);
    const forged = new URL(`${redirectBase}/signin`);
    forged.searchParams.set('code', 'attacker-code');
    forged.searchParams.set('state', 'attacker-state');
    const refused = await fetch(forged);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('does not match');
    const denied = await fetch(`${redirectBase}/signin?error=access_denied`);
    expect(denied.status).toBe(403);

    const page = await fetch(authorizationUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('MCP server "signin" is authorized (running, 1 tools)');
    expect((await view('signin')).state).toBe('running');
    expect(
      (await talon.ok<ToolsCallReply>('tools.call', { tool: 'signin_whoami', params: {} })).text,
    ).toMatch(/authorized as client-/);
  });

  it('lets a new tool-worker sign in with the stored tokens, without another authorization', async () => {
    const registrations = oauth.requests.filter((request) => request === 'POST /register').length;
    workers.push(await startServiceProcess('tool-worker', workerEnv));
    await waitUntil(
      async () =>
        (await view('signin')).instances.filter((instance) => instance.state === 'running').length === 3,
      20_000,
      'signin running on three workers',
    );
    expect((await view('signin')).authorizationUrl).toBeUndefined();
    expect(oauth.requests.filter((request) => request === 'POST /register')).toHaveLength(registrations);
  }, 40_000);

  it('reports a server without OAuth metadata with a clear discovery error and sends no guessed requests', async () => {
    const reply = await talon.call<McpServerView>('mcp.start', { server: 'nometa' });
    expect(reply).toMatchObject({
      ok: false,
      error: {
        code: 'UNAVAILABLE',
        message: expect.stringContaining('found no authorization server metadata'),
      },
    });
    const listed = await view('nometa');
    expect(listed).toMatchObject({ state: 'down', lastError: expect.stringContaining('OAuth discovery') });
    expect(listed.authorizationUrl).toBeUndefined();
    expect(noMetadata.requests.filter((request) => /\/(register|token|authorize)$/.test(request))).toEqual(
      [],
    );
    expect(await talon.call('mcp.authorize', { server: 'nometa', code: 'c', state: 's' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });
});
