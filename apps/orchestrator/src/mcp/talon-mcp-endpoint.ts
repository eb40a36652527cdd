import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTalonMcpHttpHandler, DEFAULT_TALON_MCP_PATH, type TalonMcpHttpHandler } from '@talon/mcp';
import type { ToolCatalog } from '@talon/tool-runtime';
import { TOOL_CATALOG, TOOL_DISPATCHER } from '../config/orchestrator.constants.js';
import type { ToolDispatcher } from '../tools/tool-dispatcher.js';
import { talonMcpServerOptions } from './talon-mcp-catalog.js';

/**
 * Talon as an MCP server over streamable HTTP at `/mcp` on the orchestrator's HTTP port. It is mounted as
 * plain middleware before Nest's routes (see `main.ts`), because the MCP transport reads the raw body and
 * answers on the response stream itself (SSE), which Nest's controllers and envelope must not touch.
 */
@Injectable()
export class TalonMcpEndpoint implements OnApplicationShutdown {
  readonly handler: TalonMcpHttpHandler;

  constructor(@Inject(TOOL_CATALOG) catalog: ToolCatalog, @Inject(TOOL_DISPATCHER) dispatcher: ToolDispatcher) {
    this.handler = createTalonMcpHttpHandler({ ...talonMcpServerOptions(catalog, dispatcher, 'mcp-client'), path: DEFAULT_TALON_MCP_PATH });
  }

  /** Express-style middleware: `/mcp` is served here, anything else goes on to Nest. */
  readonly middleware = (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== DEFAULT_TALON_MCP_PATH) return next();
    void this.handler.handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end();
    });
  };

  async onApplicationShutdown(): Promise<void> {
    await this.handler.close();
  }
}
