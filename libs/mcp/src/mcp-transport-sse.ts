import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { RemoteTransportConfig } from './mcp-server-config.js';
import type { McpTransportHandle, RemoteTransportOptions } from './mcp-transport.js';

/** Connects to a remote server over the older HTTP+SSE transport (GET event stream, POST messages). */
export function createSseTransport(
  config: RemoteTransportConfig,
  options: RemoteTransportOptions,
): McpTransportHandle {
  const transport = new SSEClientTransport(new URL(config.url), {
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
