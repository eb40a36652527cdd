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
import { ForbiddenError } from '@talon/auth';
import { scopeAllows } from '@talon/contracts';
import { principalOf } from '../api/http-front-door.js';

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
    // The front door checks Host for every route; the MCP transport keeps its own check with the same list.
    const allowedHosts = config.auth.allowedHosts;
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
      allowedHosts,
    });
  }

  /** Express-style middleware: `/mcp` is served here, anything else goes on to Nest. */
  readonly middleware = (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== DEFAULT_TALON_MCP_PATH) return next();
    // MCP clients are agents: the front door verified the token, the agent scope is needed.
    const principal = principalOf(request);
    if (!principal || !scopeAllows(principal.scope, 'agent')) {
      response.writeHead(403, { 'content-type': 'application/json' });
      return void response.end(
        JSON.stringify({
          ok: false,
          error: new ForbiddenError('/mcp', 'agent', principal?.scope ?? 'read').toWire(),
        }),
      );
    }
    void this.handler.handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end();
    });
  };

  async onApplicationShutdown(): Promise<void> {
    await this.handler.close();
  }
}
