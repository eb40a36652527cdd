import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Sandbox } from '@talon/sandbox';
import { McpConfigError } from './errors/mcp-config-error.js';
import { discoverMcpOAuthServer } from './mcp-oauth-discovery.js';
import type { McpSecretsStore } from './mcp-secrets-store.js';
import type { McpServerDefinition } from './mcp-server-config.js';
import type { McpTransportHandle } from './mcp-transport.js';
import { createSseTransport } from './mcp-transport-sse.js';
import { createStdioTransport } from './mcp-transport-stdio.js';
import { createStreamableHttpTransport } from './mcp-transport-streamable-http.js';

/** What building a transport may need from outside: secrets for bearer auth, OAuth providers. */
export interface McpTransportFactoryOptions {
  secrets?: McpSecretsStore;
  /** The sandbox stdio servers run in. Default: {@link Sandbox.fromEnvironment}. */
  sandbox?: Sandbox;
  /** Returns the OAuth provider of a server whose auth is `oauth` (see SecretsStoreOAuthProvider). */
  oauthProviderFor?: (definition: McpServerDefinition) => OAuthClientProvider;
}

/** Builds a fresh transport for a server definition (one transport per connect attempt). */
export async function createMcpTransport(
  definition: McpServerDefinition,
  options: McpTransportFactoryOptions = {},
): Promise<McpTransportHandle> {
  const transport = definition.transport;
  if (transport.type === 'stdio')
    return createStdioTransport(transport, {
      server: definition.name,
      ...(definition.sandbox ? { profile: definition.sandbox } : {}),
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    });
  const headers: Record<string, string> = { ...(transport.headers ?? {}) };
  let authProvider: OAuthClientProvider | undefined;
  if (definition.auth.type === 'bearer') {
    const token = await options.secrets?.get(definition.auth.secret);
    if (!token) {
      throw new McpConfigError(
        `MCP server "${definition.name}" uses bearer secret "${definition.auth.secret}", which is not set: add it to the secrets store.`,
        {
          details: { server: definition.name, secret: definition.auth.secret },
        },
      );
    }
    headers.Authorization = `Bearer ${token}`;
  } else if (definition.auth.type === 'oauth') {
    if (!options.oauthProviderFor) {
      throw new McpConfigError(
        `MCP server "${definition.name}" uses OAuth but no OAuth provider is configured in this process.`,
        {
          details: { server: definition.name },
        },
      );
    }
    authProvider = options.oauthProviderFor(definition);
    // Without tokens the SDK would discover and then guess endpoints; discover first so a server without
    // OAuth metadata fails with one clear typed error.
    if (!(await authProvider.tokens()) && !(await authProvider.discoveryState?.())) {
      const info = await discoverMcpOAuthServer(transport.url);
      await authProvider.saveDiscoveryState?.({ ...info });
    }
  }
  const provider = authProvider;
  const remote = {
    headers,
    ...(provider ? { authProvider: provider, authorizationUrl: () => pendingUrlOf(provider) } : {}),
  };
  return transport.type === 'sse'
    ? createSseTransport(transport, remote)
    : createStreamableHttpTransport(transport, remote);
}

/** The pending authorization URL of providers that keep one (SecretsStoreOAuthProvider does). */
function pendingUrlOf(provider: OAuthClientProvider): string | undefined {
  const url = (provider as { pendingAuthorizationUrl?: unknown }).pendingAuthorizationUrl;
  return url instanceof URL ? url.toString() : undefined;
}
