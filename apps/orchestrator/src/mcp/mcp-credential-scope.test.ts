import { describe, expect, it } from '@jest/globals';
import { parseMcpServerConfig } from '@talon/mcp';
import { McpCredentialScope } from './mcp-credential-scope.js';

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
  parseMcpServerConfig({
    name: 'open',
    transport: { type: 'streamable-http', url: 'https://open.example.com/mcp' },
  }),
  parseMcpServerConfig({ name: 'local', transport: { type: 'stdio', command: 'node', args: [] } }),
]);

describe('McpCredentialScope', () => {
  it('lets workers read the bearer secrets that server definitions name, and nothing else', () => {
    expect(scope.grant('github-token', 'get')).toEqual({ storedName: 'github-token', writable: false });
    expect(scope.grant('github-token', 'set')).toBeUndefined();
    expect(scope.grant('github-token', 'delete')).toBeUndefined();
    expect(scope.grant('openai-key', 'get')).toBeUndefined();
    expect(scope.grant('', 'get')).toBeUndefined();
  });

  it('maps the OAuth entries of OAuth servers to reserved stored names, read and write', () => {
    for (const item of ['tokens', 'client', 'verifier', 'discovery', 'state'])
      for (const operation of ['get', 'set', 'delete'] as const)
        expect(scope.grant(`mcp/oauth/linear/${item}`, operation)).toEqual({
          storedName: `mcp.oauth.linear.${item}`,
          writable: true,
        });
  });

  it('refuses OAuth entries of servers that are not OAuth servers, unknown items and crafted keys', () => {
    expect(scope.grant('mcp/oauth/github/tokens', 'get')).toBeUndefined();
    expect(scope.grant('mcp/oauth/open/tokens', 'get')).toBeUndefined();
    expect(scope.grant('mcp/oauth/nowhere/tokens', 'get')).toBeUndefined();
    expect(scope.grant('mcp/oauth/linear/password', 'get')).toBeUndefined();
    expect(scope.grant('mcp/oauth/linear/../github/tokens', 'get')).toBeUndefined();
    expect(scope.grant('mcp/oauth/linear/tokens/extra', 'get')).toBeUndefined();
    expect(scope.grant('mcp.oauth.linear.tokens', 'get')).toBeUndefined();
  });

  it('never reaches a secret named by a stdio server (those run in the wasm-runner)', () => {
    const stdio = new McpCredentialScope([
      parseMcpServerConfig({
        name: 'local',
        transport: { type: 'stdio', command: 'node', args: [] },
        auth: { type: 'oauth' },
      }),
    ]);
    expect(stdio.grant('mcp/oauth/local/tokens', 'get')).toBeUndefined();
    expect(stdio.describe()).toEqual({ bearerSecrets: 0, oauthServers: 0 });
    expect(scope.describe()).toEqual({ bearerSecrets: 1, oauthServers: 1 });
  });
});
