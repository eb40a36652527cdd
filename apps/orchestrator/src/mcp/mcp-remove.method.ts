import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { McpServerRequestSchema, type McpDefinitionReply, type McpServerRequest } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import { McpSharedDefinitions } from './mcp-shared-definitions.js';

/** `mcp.remove`: drops a definition added with `mcp.add`; every replica stops the server and withdraws its tools. */
@Injectable()
export class McpRemoveMethod implements ApiMethod<McpServerRequest, McpDefinitionReply>, OnModuleInit {
  readonly name = 'mcp.remove';
  readonly description =
    'Removes an MCP server added with mcp.add; it is stopped on every replica (calls in flight fail).';
  readonly scope = 'operator' as const;
  readonly request = McpServerRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(McpSharedDefinitions) private readonly definitions: McpSharedDefinitions,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(request: McpServerRequest): Promise<McpDefinitionReply> {
    return (await this.definitions.writer()).remove(request.server);
  }
}
