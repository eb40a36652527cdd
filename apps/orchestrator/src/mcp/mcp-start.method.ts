import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { McpServerRequestSchema, type McpServerRequest, type McpServerView } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import type { McpControlClient } from './mcp-control-client.js';
import { MCP_CONTROL_CLIENT } from './mcp.constants.js';

/** `mcp.start`: starts a server where it lives (wasm-runner for stdio, every tool-worker for remote) and lists its tools. */
@Injectable()
export class McpStartMethod implements ApiMethod<McpServerRequest, McpServerView>, OnModuleInit {
  readonly name = 'mcp.start';
  readonly description =
    'Starts a configured MCP server (stdio: wasm-runner; remote: every tool-worker) and lists its tools.';
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
    return this.control.start(request.server);
  }
}
