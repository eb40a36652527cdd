import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { ToolCatalog } from '@talon/tool-runtime';
import { TOOL_CATALOG } from '../config/orchestrator.constants.js';
import type { McpControlClient } from './mcp-control-client.js';
import { createMcpControlTools } from './mcp-control-tools.js';
import type { McpToolCaller } from './mcp-tool-caller.js';
import { MCP_CONTROL_CLIENT, MCP_TOOL_CALLER } from './mcp.constants.js';

/** Registers `mcp_start`, `mcp_stop`, `mcp_list` and `mcp_call` as local (protected) tools of the catalog. */
@Injectable()
export class McpControlToolsRegistration implements OnModuleInit {
  constructor(
    @Inject(TOOL_CATALOG) private readonly catalog: ToolCatalog,
    @Inject(MCP_CONTROL_CLIENT) private readonly control: McpControlClient,
    @Inject(MCP_TOOL_CALLER) private readonly caller: McpToolCaller,
  ) {}

  onModuleInit(): void {
    for (const tool of createMcpControlTools(this.control, this.caller)) this.catalog.registerLocal(tool);
  }
}
