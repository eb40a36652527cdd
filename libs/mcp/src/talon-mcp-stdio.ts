import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createTalonMcpServer, type TalonMcpServerOptions } from './talon-mcp-server.js';

/** A running stdio MCP surface (for `pnpm talon mcp serve`). */
export interface TalonMcpStdioServer {
  notifyToolsChanged(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves Talon's catalog over stdio (default: this process's stdin/stdout). Nothing else may write to
 * stdout while it runs: logs go to stderr.
 */
export async function serveTalonMcpOverStdio(
  options: TalonMcpServerOptions,
  streams: { stdin?: Readable; stdout?: Writable } = {},
): Promise<TalonMcpStdioServer> {
  const server = createTalonMcpServer(options);
  const notifyToolsChanged = () => server.sendToolListChanged().catch(() => undefined);
  const unsubscribe = options.catalog.onChange?.(() => void notifyToolsChanged());
  await server.connect(new StdioServerTransport(streams.stdin, streams.stdout));
  return {
    notifyToolsChanged,
    close: async () => {
      unsubscribe?.();
      await server.close();
    },
  };
}
