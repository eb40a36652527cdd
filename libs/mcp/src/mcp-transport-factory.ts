import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { createGuardedFetch, type AllowlistEntry, type GuardedFetch, type HostLookup } from '@talon/safety';
import type { Sandbox } from '@talon/sandbox';
import { McpConfigError } from './errors/mcp-config-error.js';
import { discoverMcpOAuthServer } from './mcp-oauth-discovery.js';
import type { McpSecretsStore } from './mcp-secrets-store.js';
import type { McpServerDefinition } from './mcp-server-config.js';
import type { McpTransportHandle } from './mcp-transport.js';
import { withTraceContext } from './mcp-trace-context-fetch.js';
import { createSseTransport } from './mcp-transport-sse.js';
import { createStdioTransport } from './mcp-transport-stdio.js';
import { createStreamableHttpTransport } from './mcp-transport-streamable-http.js';

/**
 * The outbound network of remote transports and of OAuth (discovery, registration, token requests): every
 * request goes through the SSRF guard with pinned addresses and the egress leak scan.
 */
export interface McpNetworkOptions {
  /** Ranges allowed despite being private or loopback (env `TALON_SSRF_ALLOWLIST` in the services). Default none. */
  allowlist?: readonly AllowlistEntry[];
  /** Name resolution; default the system resolver. */
  lookup?: HostLookup;
  /** CA certificates (PEM) trusted for https instead of Node's bundled roots. */
  ca?: string | readonly string[];
}

/** What building a transport may need from outside: secrets for bearer auth, OAuth providers, the network guard. */
export interface McpTransportFactoryOptions {
  secrets?: McpSecretsStore;
  /** The sandbox stdio servers run in. Default: {@link Sandbox.fromEnvironment}. */
  sandbox?: Sandbox;
  /** Returns the OAuth provider of a server whose auth is `oauth` (see SecretsStoreOAuthProvider). */
  oauthProviderFor?: (definition: McpServerDefinition) => OAuthClientProvider;
  /** Default: the guard with no allowlist (loopback, private and metadata addresses refused). */
  network?: McpNetworkOptions;
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
  }
  const fetch = guardedMcpFetch(headers, authProvider, options.network);
  if (authProvider !== undefined) {
    // Without tokens the SDK would discover and then guess endpoints; discover first so a server without
    // OAuth metadata fails with one clear typed error.
    if (!(await authProvider.tokens()) && !(await authProvider.discoveryState?.())) {
      const info = await discoverMcpOAuthServer(transport.url, { fetchFn: fetch });
      await authProvider.saveDiscoveryState?.({ ...info });
    }
  }
  const provider = authProvider;
  const remote = {
    headers,
    fetch: withTraceContext(fetch),
    ...(provider ? { authProvider: provider, authorizationUrl: () => pendingUrlOf(provider) } : {}),
  };
  return transport.type === 'sse'
    ? createSseTransport(transport, remote)
    : createStreamableHttpTransport(transport, remote);
}

/**
 * The fetch of one remote server: under the SSRF guard, with the egress scan told which values this
 * server is meant to receive (its configured headers, its bearer token, its OAuth tokens and client
 * secret), so those pass and anything else that looks like a key does not.
 */
function guardedMcpFetch(
  headers: Readonly<Record<string, string>>,
  provider: OAuthClientProvider | undefined,
  network: McpNetworkOptions = {},
): GuardedFetch {
  const configured = Object.values(headers);
  return createGuardedFetch({
    ...network,
    egress: {
      expectedValues: async () => {
        if (provider === undefined) return configured;
        const [tokens, client] = await Promise.all([provider.tokens(), provider.clientInformation()]);
        return [
          ...configured,
          ...[tokens?.access_token, tokens?.refresh_token, client?.client_secret].filter(
            (value): value is string => typeof value === 'string' && value !== '',
          ),
        ];
      },
    },
  });
}

/** The pending authorization URL of providers that keep one (SecretsStoreOAuthProvider does). */
function pendingUrlOf(provider: OAuthClientProvider): string | undefined {
  const url = (provider as { pendingAuthorizationUrl?: unknown }).pendingAuthorizationUrl;
  return url instanceof URL ? url.toString() : undefined;
}
