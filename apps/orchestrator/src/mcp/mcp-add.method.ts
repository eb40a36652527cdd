import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { McpAddRequestSchema, type McpAddRequest, type McpDefinitionReply } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import { McpSharedDefinitions } from './mcp-shared-definitions.js';

/** `mcp.add`: shares a server definition with every tool-worker and wasm-runner (KV `talon_mcp_servers`). */
@Injectable()
export class McpAddMethod implements ApiMethod<McpAddRequest, McpDefinitionReply>, OnModuleInit {
  readonly name = 'mcp.add';
  readonly description =
    'Adds or replaces an MCP server definition; every replica of its class starts following it within a second.';
  readonly scope = 'operator' as const;
  readonly request = McpAddRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(McpSharedDefinitions) private readonly definitions: McpSharedDefinitions,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(request: McpAddRequest): Promise<McpDefinitionReply> {
    return (await this.definitions.writer()).add(request.definition);
  }
}
