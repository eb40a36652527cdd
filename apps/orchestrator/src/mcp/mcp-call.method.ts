import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { McpCallRequestSchema, type McpCallRequest, type ToolsCallReply } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import type { McpToolCaller } from './mcp-tool-caller.js';
import { MCP_TOOL_CALLER } from './mcp.constants.js';

/** `mcp.call`: one MCP tool by `server.tool`, through the same pipeline as `tools.call`. */
@Injectable()
export class McpCallMethod implements ApiMethod<McpCallRequest, ToolsCallReply>, OnModuleInit {
  readonly name = 'mcp.call';
  readonly description =
    'Calls an MCP tool by `server.tool` through the full tool pipeline (starts its server if needed).';
  readonly scope = 'operator' as const;
  readonly request = McpCallRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(MCP_TOOL_CALLER) private readonly caller: McpToolCaller,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(request: McpCallRequest, context: ApiCallContext): Promise<ToolsCallReply> {
    return this.caller.call(request.tool, request.arguments ?? {}, {
      ...(context.callId ? { callId: context.callId } : {}),
      actor: `operator:${context.surface}`,
    });
  }
}
