import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { TSchema } from '@sinclair/typebox';
import {
  McpListPageRequestSchema,
  McpPromptGetRequestSchema,
  McpResourceReadRequestSchema,
  type McpListPageRequest,
  type McpPromptGetReply,
  type McpPromptGetRequest,
  type McpPromptListReply,
  type McpQueryOperation,
  type McpResourceListReply,
  type McpResourceReadReply,
  type McpResourceReadRequest,
} from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import type { McpControlClient } from './mcp-control-client.js';
import { MCP_CONTROL_CLIENT } from './mcp.constants.js';

/** One `mcp.resources.*` / `mcp.prompts.*` method: a read query routed to the process that runs the server. */
abstract class McpQueryMethod<Req extends { server: string }, Res>
  implements ApiMethod<Req, Res>, OnModuleInit
{
  abstract readonly name: string;
  abstract readonly description: string;
  abstract readonly scope: 'read' | 'agent';
  abstract readonly request: TSchema;
  protected abstract readonly operation: McpQueryOperation;

  constructor(
    private readonly router: ApiRouter,
    private readonly control: McpControlClient,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(request: Req): Promise<Res> {
    return this.control.query<Res>(this.operation, request);
  }
}

/** `mcp.resources.list`: one page of a server's resources (uri, name, description, mimeType, size). */
@Injectable()
export class McpResourcesListMethod extends McpQueryMethod<McpListPageRequest, McpResourceListReply> {
  readonly name = 'mcp.resources.list';
  readonly description = "Lists an MCP server's resources (one page; pass nextCursor for the next).";
  readonly scope = 'read' as const;
  readonly request = McpListPageRequestSchema;
  protected readonly operation = 'resources.list' as const;
  constructor(router: ApiRouter, @Inject(MCP_CONTROL_CLIENT) control: McpControlClient) {
    super(router, control);
  }
}

/** `mcp.resources.read`: a resource's contents, typed (text, or base64 under the inline cap). */
@Injectable()
export class McpResourcesReadMethod extends McpQueryMethod<McpResourceReadRequest, McpResourceReadReply> {
  readonly name = 'mcp.resources.read';
  readonly description = 'Reads one resource of an MCP server by URI; contents keep their MIME type.';
  readonly scope = 'agent' as const;
  readonly request = McpResourceReadRequestSchema;
  protected readonly operation = 'resources.read' as const;
  constructor(router: ApiRouter, @Inject(MCP_CONTROL_CLIENT) control: McpControlClient) {
    super(router, control);
  }
}

/** `mcp.prompts.list`: one page of a server's prompts with their arguments. */
@Injectable()
export class McpPromptsListMethod extends McpQueryMethod<McpListPageRequest, McpPromptListReply> {
  readonly name = 'mcp.prompts.list';
  readonly description = "Lists an MCP server's prompts and their arguments (one page).";
  readonly scope = 'read' as const;
  readonly request = McpListPageRequestSchema;
  protected readonly operation = 'prompts.list' as const;
  constructor(router: ApiRouter, @Inject(MCP_CONTROL_CLIENT) control: McpControlClient) {
    super(router, control);
  }
}

/** `mcp.prompts.get`: a prompt rendered by its server with the given arguments (a skill-like template). */
@Injectable()
export class McpPromptsGetMethod extends McpQueryMethod<McpPromptGetRequest, McpPromptGetReply> {
  readonly name = 'mcp.prompts.get';
  readonly description = 'Renders one prompt of an MCP server with its arguments; messages keep their types.';
  readonly scope = 'agent' as const;
  readonly request = McpPromptGetRequestSchema;
  protected readonly operation = 'prompts.get' as const;
  constructor(router: ApiRouter, @Inject(MCP_CONTROL_CLIENT) control: McpControlClient) {
    super(router, control);
  }
}
