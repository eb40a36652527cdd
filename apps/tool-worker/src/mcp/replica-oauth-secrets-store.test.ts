import { describe, expect, it } from '@jest/globals';
import { InMemoryMcpSecretsStore } from '@talon/mcp';
import { ReplicaOAuthSecretsStore } from './replica-oauth-secrets-store.js';

describe('ReplicaOAuthSecretsStore', () => {
  it('keeps the PKCE verifier and state in the replica, never in the shared store', async () => {
    const shared = new InMemoryMcpSecretsStore();
    const [a, b] = [new ReplicaOAuthSecretsStore(shared), new ReplicaOAuthSecretsStore(shared)];
    await a.set('mcp/oauth/x/verifier', 'verifier-a');
    await b.set('mcp/oauth/x/verifier', 'verifier-b');
    await a.set('mcp/oauth/x/state', 'state-a');
    expect(await a.get('mcp/oauth/x/verifier')).toBe('verifier-a');
    expect(await b.get('mcp/oauth/x/verifier')).toBe('verifier-b');
    expect(await shared.get('mcp/oauth/x/verifier')).toBeUndefined();
    expect(await shared.get('mcp/oauth/x/state')).toBeUndefined();
    await a.delete('mcp/oauth/x/state');
    expect(await a.get('mcp/oauth/x/state')).toBeUndefined();
  });

  it('shares the client the tokens were issued to, and a replica that finds tokens drops its own registration', async () => {
    const shared = new InMemoryMcpSecretsStore();
    const [a, b] = [new ReplicaOAuthSecretsStore(shared), new ReplicaOAuthSecretsStore(shared)];
    await a.set('mcp/oauth/x/client', 'client-a');
    await b.set('mcp/oauth/x/client', 'client-b');
    expect(await shared.get('mcp/oauth/x/client')).toBe('client-b');
    // Each replica finishes with the registration its own authorization URL carries.
    expect(await a.get('mcp/oauth/x/client')).toBe('client-a');
    await a.set('mcp/oauth/x/tokens', '{"access_token":"at"}');
    expect(await shared.get('mcp/oauth/x/client')).toBe('client-a');
    expect(await b.get('mcp/oauth/x/client')).toBe('client-b');
    expect(await b.get('mcp/oauth/x/tokens')).toBe('{"access_token":"at"}');
    expect(await b.get('mcp/oauth/x/client')).toBe('client-a');
  });

  it('passes other names (bearer secrets, discovery) straight through', async () => {
    const shared = new InMemoryMcpSecretsStore({ 'github-token': 'ghp' });
    const store = new ReplicaOAuthSecretsStore(shared);
    expect(await store.get('github-token')).toBe('ghp');
    await store.set('mcp/oauth/x/discovery', '{}');
    expect(await shared.get('mcp/oauth/x/discovery')).toBe('{}');
    await store.delete('mcp/oauth/x/discovery');
    expect(await shared.get('mcp/oauth/x/discovery')).toBeUndefined();
  });

  it('reuses tokens for a while instead of asking the orchestrator before every request', async () => {
    const shared = new InMemoryMcpSecretsStore({ 'mcp/oauth/x/tokens': 'first' });
    const store = new ReplicaOAuthSecretsStore(shared, 60_000);
    expect(await store.get('mcp/oauth/x/tokens')).toBe('first');
    await shared.set('mcp/oauth/x/tokens', 'refreshed elsewhere');
    expect(await store.get('mcp/oauth/x/tokens')).toBe('first');
    store.refresh('x');
    expect(await store.get('mcp/oauth/x/tokens')).toBe('refreshed elsewhere');
    await store.set('mcp/oauth/x/tokens', 'mine');
    expect(await store.get('mcp/oauth/x/tokens')).toBe('mine');
    await store.delete('mcp/oauth/x/tokens');
    expect(await store.get('mcp/oauth/x/tokens')).toBeUndefined();
    const fresh = new ReplicaOAuthSecretsStore(
      new InMemoryMcpSecretsStore({ 'mcp/oauth/x/tokens': 'v1' }),
      0,
    );
    expect(await fresh.get('mcp/oauth/x/tokens')).toBe('v1');
  });
});
