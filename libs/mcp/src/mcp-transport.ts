import type { Readable } from 'node:stream';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** A transport plus what Talon needs to see of it beyond JSON-RPC. */
export interface McpTransportHandle {
  readonly transport: Transport;
  /** The child's process id (stdio only, once started). */
  pid(): number | undefined;
  /** The child's stderr (stdio only), readable before `start` so early output is kept. */
  readonly stderr?: Readable;
  /** The URL a person must open to authorize Talon, once the OAuth flow asked for one. */
  authorizationUrl?(): string | undefined;
  /** Completes an OAuth authorization-code flow (remote transports with an auth provider). */
  finishAuth?(authorizationCode: string): Promise<void>;
}

/** What a remote transport factory needs besides the server's URL. */
export interface RemoteTransportOptions {
  /** Headers sent with every request (config headers plus a resolved bearer token). */
  headers: Record<string, string>;
  /** The fetch every request of the transport and of its OAuth flow goes through (the SSRF-guarded one). */
  fetch?: FetchLike;
  /** OAuth provider for servers with `auth.type: 'oauth'`. */
  authProvider?: OAuthClientProvider;
  /** Reads the pending authorization URL from the provider (for the typed error). */
  authorizationUrl?: () => string | undefined;
}
