import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTalonMcpHttpHandler, DEFAULT_TALON_MCP_PATH, type TalonMcpHttpHandler } from '@talon/mcp';
import type { ToolCatalog } from '@talon/tool-runtime';
import type { Database } from '@talon/persistence';
import {
  DATABASE,
  ORCHESTRATOR_CONFIG,
  POLICY_GATE,
  TOOL_CATALOG,
} from '../config/orchestrator.constants.js';
import type { PolicyGate } from '../agent/policy-gate.js';
import { McpClientSessions } from './mcp-client-sessions.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import { talonMcpServerOptions } from './talon-mcp-catalog.js';

/**
 * Talon as an MCP server over streamable HTTP at `/mcp` on the orchestrator's HTTP port. It is mounted as
 * plain middleware before Nest's routes (see `main.ts`), because the MCP transport reads the raw body and
 * answers on the response stream itself (SSE), which Nest's controllers and envelope must not touch.
 */
@Injectable()
export class TalonMcpEndpoint implements OnApplicationShutdown {
  readonly handler: TalonMcpHttpHandler;

  constructor(
    @Inject(TOOL_CATALOG) catalog: ToolCatalog,
    @Inject(POLICY_GATE) gate: PolicyGate,
    @Inject(DATABASE) database: Database,
    @Inject(ORCHESTRATOR_CONFIG) config: OrchestratorConfig,
  ) {
    const allowedHosts = mcpAllowedHosts(config.http, process.env.TALON_MCP_ALLOWED_HOSTS);
    // MCP clients are agents: each client session gets a Talon session whose policy and approvals apply.
    const sessions = new McpClientSessions(database.prisma);
    this.handler = createTalonMcpHttpHandler({
      ...talonMcpServerOptions(
        catalog,
        async (request, mcpSessionId) =>
          gate.call({ ...request, sessionId: await sessions.sessionFor(mcpSessionId) }),
        'mcp-client',
      ),
      path: DEFAULT_TALON_MCP_PATH,
      ...(allowedHosts ? { allowedHosts } : {}),
    });
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

/**
 * Host headers `/mcp` accepts (DNS-rebinding protection: a web page must not reach a local Talon through a
 * name it controls). `TALON_MCP_ALLOWED_HOSTS` (comma-separated `host:port`) wins; on a loopback address the
 * default is `127.0.0.1:<port>` and `localhost:<port>`; elsewhere any host is accepted.
 */
export function mcpAllowedHosts(
  http: { host: string; port: number },
  configured: string | undefined,
): string[] | undefined {
  if (configured?.trim())
    return configured
      .split(',')
      .map((host) => host.trim())
      .filter(Boolean);
  const loopback = http.host === '127.0.0.1' || http.host === 'localhost' || http.host === '::1';
  return loopback ? [`127.0.0.1:${http.port}`, `localhost:${http.port}`, `[::1]:${http.port}`] : undefined;
}
