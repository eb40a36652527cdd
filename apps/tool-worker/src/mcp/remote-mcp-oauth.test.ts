import { afterEach, describe, expect, it } from '@jest/globals';
import type { McpServerListing } from '@talon/contracts';
import { InMemoryMcpSecretsStore, McpManager, parseMcpServerConfig } from '@talon/mcp';
import { RemoteMcpOAuth } from './remote-mcp-oauth.js';

const definition = parseMcpServerConfig({
  name: 'signin',
  transport: { type: 'streamable-http', url: 'http://127.0.0.1:9/mcp' },
  auth: { type: 'oauth', client_name: 'Talon unit', scopes: ['a', 'b'] },
});
const managers: McpManager[] = [];
afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.close();
});

function listing(state: McpServerListing['state']): McpServerListing {
  return {
    name: 'signin',
    displayName: 'signin',
    transport: 'streamable-http',
    state,
    toolCount: 0,
    lastStderr: [],
    restarts: 0,
    tools: [],
    unusableTools: [],
  };
}

async function pendingAuthorization(oauth: RemoteMcpOAuth, state: string): Promise<void> {
  await oauth
    .providerFor(definition)
    .redirectToAuthorization(new URL(`http://127.0.0.1:9/authorize?state=${state}`));
}

describe('RemoteMcpOAuth', () => {
  it('gives each server one provider with its own redirect URL, client name and scopes', () => {
    const oauth = new RemoteMcpOAuth(
      new InMemoryMcpSecretsStore(),
      'http://127.0.0.1:8080/mcp/oauth/callback/',
    );
    const provider = oauth.providerFor(definition);
    expect(oauth.providerFor(definition)).toBe(provider);
    expect(provider.redirectUrl).toBe('http://127.0.0.1:8080/mcp/oauth/callback/signin');
    expect(provider.clientMetadata).toMatchObject({
      client_name: 'Talon unit',
      scope: 'a b',
      redirect_uris: ['http://127.0.0.1:8080/mcp/oauth/callback/signin'],
    });
  });

  it('shows the pending authorization URL until the server runs', async () => {
    const oauth = new RemoteMcpOAuth(new InMemoryMcpSecretsStore(), 'http://127.0.0.1:8080/cb');
    expect(oauth.withAuthorizationUrls([listing('down')])[0]?.authorizationUrl).toBeUndefined();
    await pendingAuthorization(oauth, 'abc');
    expect(oauth.withAuthorizationUrls([listing('down')])[0]?.authorizationUrl).toBe(
      'http://127.0.0.1:9/authorize?state=abc',
    );
    expect(oauth.withAuthorizationUrls([listing('running')])[0]?.authorizationUrl).toBeUndefined();
    expect(oauth.withAuthorizationUrls([listing('down')])[0]?.authorizationUrl).toBeUndefined();
  });

  it('refuses a code with no pending authorization, with a wrong state, and for an unknown server', async () => {
    const oauth = new RemoteMcpOAuth(new InMemoryMcpSecretsStore(), 'http://127.0.0.1:8080/cb');
    const manager = new McpManager({ servers: [definition] });
    managers.push(manager);
    await expect(oauth.authorize(manager, { server: 'signin', code: 'c', state: 's' })).rejects.toMatchObject(
      { code: 'NOT_FOUND', name: 'NoPendingAuthorizationError' },
    );
    await pendingAuthorization(oauth, 'right-state');
    await expect(
      oauth.authorize(manager, { server: 'signin', code: 'c', state: 'wrong-state' }),
    ).rejects.toMatchObject({ code: 'POLICY_DENIED', name: 'AuthorizationStateMismatchError' });
    await expect(
      oauth.authorize(manager, { server: 'signin', code: 'c', state: 'right-stat' }),
    ).rejects.toMatchObject({ code: 'POLICY_DENIED' });
    await expect(
      oauth.authorize(manager, { server: 'other', code: 'c', state: 'right-state' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', name: 'McpUnknownServerError' });
    // The pending URL survives refused attempts; the right state reaches the manager, which has no transport waiting.
    await expect(
      oauth.authorize(manager, { server: 'signin', code: 'c', state: 'right-state' }),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(
      oauth.authorize(manager, { server: 'signin', code: 'c', state: 'right-state' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
