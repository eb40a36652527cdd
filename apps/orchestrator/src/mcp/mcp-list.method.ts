import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { EmptyRequestSchema, type EmptyRequest, type McpViewListReply } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import type { McpControlClient } from './mcp-control-client.js';
import { MCP_CONTROL_CLIENT } from './mcp.constants.js';

/** `mcp.list`: every configured MCP server with state, tool count, last error and per-instance states. */
@Injectable()
export class McpListMethod implements ApiMethod<EmptyRequest, McpViewListReply>, OnModuleInit {
  readonly name = 'mcp.list';
  readonly description =
    'Lists MCP servers of every wasm-runner and tool-worker: state, tools, last error, restarts.';
  readonly scope = 'read' as const;
  readonly request = EmptyRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(MCP_CONTROL_CLIENT) private readonly control: McpControlClient,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(): Promise<McpViewListReply> {
    return { servers: await this.control.list() };
  }
}
