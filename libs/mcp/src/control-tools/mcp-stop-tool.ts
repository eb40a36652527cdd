import type { ToolDomain } from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import type { McpManager } from '../mcp-manager.js';
import { controlToolDefinition, SERVER_PARAMETERS } from './control-tool-definition.js';

/** `mcp_stop`: stops a running server; its tools stay listed and the next call starts it again. */
export function createMcpStopTool(manager: McpManager, domain: ToolDomain): Tool {
  return {
    definition: controlToolDefinition(
      'mcp_stop',
      'Stop a running MCP server (its tools stay listed).',
      SERVER_PARAMETERS,
      [],
      domain,
    ),
    execute: async (params) => manager.stop(String(params.server)),
  };
}
