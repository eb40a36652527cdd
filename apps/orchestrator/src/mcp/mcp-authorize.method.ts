import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { McpAuthorizeRequestSchema, type McpAuthorizeRequest, type McpServerView } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import type { AuditLog } from '../audit/audit-log.js';
import { AUDIT_LOG } from '../config/orchestrator.constants.js';
import type { McpAuthorizationClient } from './mcp-authorization-client.js';
import { MCP_AUTHORIZATION_CLIENT } from './mcp.constants.js';

/** `mcp.authorize`: finishes a remote server's OAuth authorization with the code and state of the redirect. */
@Injectable()
export class McpAuthorizeMethod implements ApiMethod<McpAuthorizeRequest, McpServerView>, OnModuleInit {
  readonly name = 'mcp.authorize';
  readonly description =
    "Finishes a remote MCP server's OAuth authorization with the code and state from the redirect, then starts the server.";
  readonly scope = 'operator' as const;
  readonly request = McpAuthorizeRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(MCP_AUTHORIZATION_CLIENT) private readonly authorization: McpAuthorizationClient,
    @Inject(AUDIT_LOG) private readonly audit: AuditLog,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(request: McpAuthorizeRequest, context: ApiCallContext): Promise<McpServerView> {
    try {
      const view = await this.authorization.authorize(request);
      await this.audit.append({
        kind: 'mcp.authorize',
        actor: `operator:${context.surface}`,
        outcome: 'ok',
        data: { server: request.server },
      });
      return view;
    } catch (error) {
      await this.audit.append({
        kind: 'mcp.authorize',
        actor: `operator:${context.surface}`,
        outcome: 'error',
        data: { server: request.server, code: (error as { code?: string }).code },
      });
      throw error;
    }
  }
}
