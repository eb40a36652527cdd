import { discoverOAuthServerInfo, type OAuthServerInfo } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpOAuthDiscoveryError } from './errors/mcp-oauth-discovery-error.js';

/**
 * Finds the authorization server of a remote MCP server (RFC 9728 protected-resource metadata, then
 * RFC 8414 / OpenID metadata). The SDK quietly falls back to guessed endpoints when nothing is found;
 * Talon refuses instead, so a server without OAuth metadata gives one clear error and no stray requests.
 */
export async function discoverMcpOAuthServer(
  serverUrl: string,
  options: { fetchFn?: FetchLike } = {},
): Promise<OAuthServerInfo> {
  let info: OAuthServerInfo;
  try {
    info = await discoverOAuthServerInfo(serverUrl, options.fetchFn ? { fetchFn: options.fetchFn } : {});
  } catch (error) {
    throw new McpOAuthDiscoveryError(
      `OAuth discovery for ${serverUrl} failed: ${(error as Error).message}. Check the server URL, or configure bearer auth if the server has no OAuth.`,
      { details: { serverUrl }, cause: error },
    );
  }
  if (!info.authorizationServerMetadata) {
    throw new McpOAuthDiscoveryError(
      `OAuth discovery for ${serverUrl} found no authorization server metadata (looked for protected-resource metadata and ` +
        `${info.authorizationServerUrl} .well-known/oauth-authorization-server and openid-configuration). ` +
        'The server does not support OAuth as configured: use bearer auth or fix its metadata.',
      {
        details: {
          serverUrl,
          authorizationServerUrl: info.authorizationServerUrl,
          resourceMetadataFound: info.resourceMetadata !== undefined,
        },
      },
    );
  }
  return info;
}
