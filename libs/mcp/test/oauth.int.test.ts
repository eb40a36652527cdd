import { afterEach, describe, expect, it } from '@jest/globals';
import {
  InMemoryMcpSecretsStore,
  McpManager,
  parseMcpServerConfig,
  SecretsStoreOAuthProvider,
  type McpServerDefinition,
} from '../src/index.js';
import { startOAuthStub, type OAuthStub } from './support/oauth-stub-server.js';

const REDIRECT = 'http://127.0.0.1:1/talon/oauth/callback';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// The stub listens on loopback: only that is allowed, as an operator's TALON_SSRF_ALLOWLIST would.
const network = { allowlist: ['127.0.0.1/32'] };

async function stub(
  metadata = true,
  pointAt?: NonNullable<Parameters<typeof startOAuthStub>[0]>['pointAt'],
): Promise<OAuthStub> {
  const server = await startOAuthStub({ metadata, pointAt });
  cleanups.push(() => server.close());
  return server;
}

function oauthManager(
  definition: McpServerDefinition,
  secrets: InMemoryMcpSecretsStore,
  urls: URL[],
): McpManager {
  const manager = new McpManager({
    servers: [definition],
    secrets,
    network,
    oauthProviderFor: (server) =>
      new SecretsStoreOAuthProvider({
        server: server.name,
        secrets,
        redirectUrl: REDIRECT,
        scopes: ['tools'],
        onAuthorizationUrl: (url) => void urls.push(url),
      }),
  });
  cleanups.push(() => manager.close());
  return manager;
}

const secured = (url: string) =>
  parseMcpServerConfig({
    name: 'secure',
    transport: { type: 'streamable-http', url },
    auth: { type: 'oauth', client_name: 'Talon test', scopes: ['tools'] },
  });

describe('OAuth for remote MCP servers', () => {
  it('reports a failed discovery clearly when the server publishes no OAuth metadata', async () => {
    const server = await stub(false);
    const manager = oauthManager(secured(server.mcpUrl), new InMemoryMcpSecretsStore(), []);
    const error = await manager.start('secure').catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      name: 'McpOAuthDiscoveryError',
      code: 'UNAVAILABLE',
      message: expect.stringContaining('found no authorization server metadata'),
    });
    expect(manager.list()[0]).toMatchObject({
      state: 'down',
      lastError: expect.stringContaining('OAuth discovery'),
    });
    // No guessed endpoints were tried after discovery failed.
    expect(server.requests.filter((request) => /\/(register|token|authorize)$/.test(request))).toEqual([]);
  });

  it('registers, authorizes with PKCE, stores tokens as secrets and reuses them', async () => {
    const server = await stub();
    const secrets = new InMemoryMcpSecretsStore();
    const urls: URL[] = [];
    const manager = oauthManager(secured(server.mcpUrl), secrets, urls);
    const required = await manager.start('secure').catch((caught: unknown) => caught);
    expect(required).toMatchObject({ code: 'POLICY_DENIED', name: 'McpAuthorizationRequiredError' });
    expect(urls).toHaveLength(1);
    expect((required as { details: { authorizationUrl: string } }).details.authorizationUrl).toBe(
      urls[0]?.toString(),
    );
    const authorizationUrl = urls[0] as URL;
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(await secrets.get('mcp/oauth/secure/client')).toContain('client-');

    // A person approves: the authorization server redirects to Talon's callback with a code.
    const approval = await fetch(authorizationUrl, { redirect: 'manual' });
    const callback = new URL(approval.headers.get('location') ?? '');
    const provider = new SecretsStoreOAuthProvider({
      server: 'secure',
      secrets,
      redirectUrl: REDIRECT,
      onAuthorizationUrl: () => undefined,
    });
    expect(await provider.checkState(callback.searchParams.get('state') ?? '')).toBe(true);
    await manager.finishAuthorization('secure', callback.searchParams.get('code') ?? '');
    expect(manager.list()[0]?.state).toBe('running');
    expect((await manager.call('secure.whoami', {})).text).toMatch(/^authorized as client-/);
    expect(JSON.parse((await secrets.get('mcp/oauth/secure/tokens')) ?? '{}')).toMatchObject({
      access_token: expect.stringMatching(/^at-/),
    });

    // A second manager (a restart) finds the stored tokens and needs no authorization.
    const again: URL[] = [];
    const restarted = oauthManager(secured(server.mcpUrl), secrets, again);
    expect((await restarted.call('secure.whoami', {})).text).toMatch(/^authorized as client-/);
    expect(again).toEqual([]);
  });

  it('refuses a bearer server whose secret is missing, and sends the secret when present', async () => {
    const server = await stub(false);
    const definition = parseMcpServerConfig({
      name: 'bearer',
      transport: { type: 'streamable-http', url: server.mcpUrl },
      auth: { type: 'bearer', secret: 'BEARER_TOKEN' },
    });
    const manager = new McpManager({
      servers: [definition],
      secrets: new InMemoryMcpSecretsStore(),
      network,
    });
    cleanups.push(() => manager.close());
    await expect(manager.start('bearer')).rejects.toMatchObject({
      code: 'SCHEMA_VIOLATION',
      message: expect.stringContaining('BEARER_TOKEN'),
    });
    const withSecret = new McpManager({
      servers: [definition],
      network,
      secrets: new InMemoryMcpSecretsStore({ BEARER_TOKEN: 'wrong-token' }),
    });
    cleanups.push(() => withSecret.close());
    // The stub knows no such token: the server answers 401, reported as a failed start (not a crash).
    await expect(withSecret.start('bearer')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(server.authorizations).toContain('Bearer wrong-token');
  });

  it('refuses a remote MCP server on loopback unless the operator allowlists it', async () => {
    const server = await stub(false);
    const definition = parseMcpServerConfig({
      name: 'bearer',
      transport: { type: 'streamable-http', url: server.mcpUrl },
      auth: { type: 'bearer', secret: 'BEARER_TOKEN' },
    });
    const unguarded = new McpManager({
      servers: [definition],
      secrets: new InMemoryMcpSecretsStore({ BEARER_TOKEN: 'some-token' }),
    });
    cleanups.push(() => unguarded.close());
    await expect(unguarded.start('bearer')).rejects.toMatchObject({
      message: expect.stringMatching(/loopback/),
    });
    expect(server.requests).toEqual([]);
  });

  it.each([
    ['the authorization server', { authorizationServer: 'http://169.254.169.254' }],
    ['the registration endpoint', { registration: 'http://169.254.169.254/register' }],
    ['the registration endpoint on another loopback port', { registration: 'http://127.0.0.2:9/register' }],
  ])('refuses OAuth metadata that points %s at a forbidden address', async (_name, pointAt) => {
    const server = await stub(true, pointAt);
    const urls: URL[] = [];
    const manager = oauthManager(secured(server.mcpUrl), new InMemoryMcpSecretsStore(), urls);
    const error = await manager.start('secure').catch((caught: unknown) => caught);
    expect(JSON.stringify({ message: (error as Error).message, list: manager.list() })).toMatch(
      /cloud_metadata|metadata address|loopback|169\.254\.169\.254|127\.0\.0\.2/,
    );
    expect(urls).toEqual([]);
  });

  it('refuses a token endpoint at a metadata address: the code never leaves', async () => {
    const server = await stub(true, { token: 'http://169.254.169.254/token' });
    const secrets = new InMemoryMcpSecretsStore();
    const urls: URL[] = [];
    const manager = oauthManager(secured(server.mcpUrl), secrets, urls);
    await manager.start('secure').catch(() => undefined);
    expect(urls).toHaveLength(1);
    const approval = await fetch(urls[0] as URL, { redirect: 'manual' });
    const code = new URL(approval.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const error = await manager.finishAuthorization('secure', code).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'SSRF_BLOCKED', details: { reason: 'cloud_metadata' } });
    expect(await secrets.get('mcp/oauth/secure/tokens')).toBeUndefined();
  });
});
