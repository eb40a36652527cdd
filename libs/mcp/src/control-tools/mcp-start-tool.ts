import type { ToolDomain } from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import type { McpManager } from '../mcp-manager.js';
import { controlToolDefinition, SERVER_PARAMETERS } from './control-tool-definition.js';

/** `mcp_start`: starts a configured server and lists its tools. */
export function createMcpStartTool(manager: McpManager, domain: ToolDomain): Tool {
  return {
    definition: controlToolDefinition(
      'mcp_start',
      'Start a configured MCP server and list its tools.',
      SERVER_PARAMETERS,
      ['spawn_process', 'network'],
      domain,
    ),
    execute: async (params) => manager.start(String(params.server)),
  };
}
