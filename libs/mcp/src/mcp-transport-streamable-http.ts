import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RemoteTransportConfig } from './mcp-server-config.js';
import type { McpTransportHandle, RemoteTransportOptions } from './mcp-transport.js';

/** Connects to a remote server over streamable HTTP (one POST per message, optional SSE stream back). */
export function createStreamableHttpTransport(
  config: RemoteTransportConfig,
  options: RemoteTransportOptions,
): McpTransportHandle {
  const transport = new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: options.headers },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
  });
  return {
    transport,
    pid: () => undefined,
    authorizationUrl: () => options.authorizationUrl?.(),
    finishAuth: (code) => transport.finishAuth(code),
  };
}
