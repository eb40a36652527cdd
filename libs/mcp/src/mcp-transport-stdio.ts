import type { Readable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StdioTransportConfig } from './mcp-server-config.js';
import type { McpTransportHandle } from './mcp-transport.js';

/**
 * Spawns a stdio server. The child inherits only the SDK's small default environment (PATH, HOME, …)
 * plus the definition's `env`, never Talon's own secrets; stderr is piped so its last lines can be
 * reported when the server crashes.
 */
export function createStdioTransport(config: StdioTransportConfig): McpTransportHandle {
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    env: config.env ?? {},
    stderr: 'pipe',
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
  });
  return {
    transport,
    pid: () => transport.pid ?? undefined,
    stderr: (transport.stderr as Readable | null) ?? undefined,
  };
}
