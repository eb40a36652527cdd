import { describe, expect, it } from '@jest/globals';
import { DEFAULT_MCP_OAUTH_REDIRECT_URL, parseRemoteMcpConfig } from './remote-mcp-config.js';

describe('parseRemoteMcpConfig OAuth redirect URL', () => {
  it('defaults to the orchestrator callback and accepts an http(s) URL', () => {
    expect(parseRemoteMcpConfig({}, '/srv').oauthRedirectUrl).toBe(DEFAULT_MCP_OAUTH_REDIRECT_URL);
    expect(
      parseRemoteMcpConfig(
        { TALON_MCP_OAUTH_REDIRECT_URL: 'https://talon.example.com/mcp/oauth/callback' },
        '/srv',
      ).oauthRedirectUrl,
    ).toBe('https://talon.example.com/mcp/oauth/callback');
  });

  it('refuses a value that is not an absolute http(s) URL', () => {
    expect(() => parseRemoteMcpConfig({ TALON_MCP_OAUTH_REDIRECT_URL: '/callback' }, '/srv')).toThrow(
      /TALON_MCP_OAUTH_REDIRECT_URL/,
    );
    expect(() =>
      parseRemoteMcpConfig({ TALON_MCP_OAUTH_REDIRECT_URL: 'javascript:alert(1)' }, '/srv'),
    ).toThrow(/absolute http\(s\) URL/);
  });
});
