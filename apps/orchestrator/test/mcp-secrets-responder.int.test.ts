import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SecretCipher } from '@talon/agent';
import type { Envelope, McpSecretsOperation, McpSecretsReply } from '@talon/contracts';
import { parseMcpServerConfig } from '@talon/mcp';
import { openDatabase, type Database } from '@talon/persistence';
import { JsonLogger } from '@talon/service-runtime';
import { createTestDatabase, type TestDatabase } from '@talon/testing';
import { McpCredentialScope } from '../src/mcp/mcp-credential-scope.js';
import { McpSecretsResponder } from '../src/mcp/mcp-secrets-responder.js';
import { SecretStore } from '../src/secrets/secret-store.js';

const TOKENS = JSON.stringify({ access_token: 'at-very-secret-access-token', token_type: 'Bearer' });

describe('MCP secrets served from the encrypted store (McpSecretsResponder over a real database)', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let store: SecretStore;
  let responder: McpSecretsResponder;
  const logLines: string[] = [];

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase({ kind: 'postgres', url: testDatabase.url });
    store = new SecretStore(database.prisma, new SecretCipher(randomBytes(32)));
    const scope = new McpCredentialScope([
      parseMcpServerConfig({
        name: 'github',
        transport: { type: 'streamable-http', url: 'https://mcp.example.com/mcp' },
        auth: { type: 'bearer', secret: 'github-token' },
      }),
      parseMcpServerConfig({
        name: 'linear',
        transport: { type: 'sse', url: 'https://linear.example.com/sse' },
        auth: { type: 'oauth' },
      }),
    ]);
    const logger = new JsonLogger(
      { service: 'orchestrator', instanceId: 'test' },
      'debug',
      (line) => void logLines.push(line),
    );
    // `answer` is what the NATS subscription calls; the subjects themselves are covered by the tool-worker suite.
    responder = new McpSecretsResponder(undefined as never, store, scope, logger);
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  const ask = (operation: McpSecretsOperation, payload: unknown): Promise<Envelope<McpSecretsReply>> =>
    responder.answer(operation, new TextEncoder().encode(JSON.stringify(payload)));

  it('writes OAuth entries encrypted under reserved names that no tool can be granted', async () => {
    expect(await ask('set', { name: 'mcp/oauth/linear/tokens', value: TOKENS })).toEqual({
      ok: true,
      data: {},
    });
    const row = await database.prisma.secret.findUnique({ where: { name: 'mcp.oauth.linear.tokens' } });
    expect(row?.sealed).toBeDefined();
    expect(row!.sealed).not.toContain('at-very-secret-access-token');
    expect(row!.hostPatterns).toEqual([]);
    expect(await ask('get', { name: 'mcp/oauth/linear/tokens' })).toEqual({
      ok: true,
      data: { value: TOKENS },
    });
    expect(await store.grantsForNames(['mcp.oauth.linear.tokens'])).toEqual([]);
    expect(await store.grantsForUrl('https://linear.example.com/sse')).toEqual([]);
    expect(await ask('delete', { name: 'mcp/oauth/linear/tokens' })).toEqual({ ok: true, data: {} });
    expect(await ask('get', { name: 'mcp/oauth/linear/tokens' })).toEqual({ ok: true, data: {} });
  });

  it('reads a referenced bearer secret, and refuses every other name and any write to it', async () => {
    await store.set('github-token', 'ghp_referenced');
    await store.set('openai-key', 'sk-not-for-mcp');
    expect(await ask('get', { name: 'github-token' })).toEqual({
      ok: true,
      data: { value: 'ghp_referenced' },
    });
    for (const [operation, payload] of [
      ['get', { name: 'openai-key' }],
      ['set', { name: 'github-token', value: 'replaced' }],
      ['delete', { name: 'github-token' }],
      ['get', { name: 'mcp.oauth.linear.tokens' }],
      ['get', { name: 'mcp/oauth/github/tokens' }],
    ] as const)
      expect(await ask(operation, payload)).toMatchObject({ ok: false, error: { code: 'POLICY_DENIED' } });
    expect(await ask('get', { name: 'github-token', value: 'x', extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
    expect(await ask('set', { name: 'mcp/oauth/linear/client' })).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
    expect(await responder.answer('get', new TextEncoder().encode('{not json'))).toMatchObject({
      ok: false,
      error: { code: 'MALFORMED_JSON' },
    });
    expect(await store.valueOf('github-token')).toBe('ghp_referenced');
  });

  it('logs operations and names, never values', () => {
    const logs = logLines.join('\n');
    expect(logs).toContain('mcp/oauth/linear/tokens');
    expect(logs).toContain('openai-key');
    for (const value of ['at-very-secret-access-token', 'ghp_referenced', 'sk-not-for-mcp', 'replaced'])
      expect(logs).not.toContain(value);
  });
});
