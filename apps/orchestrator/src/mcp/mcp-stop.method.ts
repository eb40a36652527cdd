import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { McpServerRequestSchema, type McpServerRequest, type McpServerView } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import type { McpControlClient } from './mcp-control-client.js';
import { MCP_CONTROL_CLIENT } from './mcp.constants.js';

/** `mcp.stop`: stops a server; its tools stay listed and the next call starts it again. */
@Injectable()
export class McpStopMethod implements ApiMethod<McpServerRequest, McpServerView>, OnModuleInit {
  readonly name = 'mcp.stop';
  readonly description =
    'Stops a running MCP server; its tools stay listed and the next call starts it again.';
  readonly scope = 'operator' as const;
  readonly request = McpServerRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(MCP_CONTROL_CLIENT) private readonly control: McpControlClient,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(request: McpServerRequest): Promise<McpServerView> {
    return this.control.stop(request.server);
  }
}
