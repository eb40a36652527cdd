import type { ToolDomain } from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import type { McpManager } from '../mcp-manager.js';
import { controlToolDefinition } from './control-tool-definition.js';

/** `mcp_list`: every server with state, tool count, last error, pid and restarts. */
export function createMcpListTool(manager: McpManager, domain: ToolDomain): Tool {
  const parameters = { type: 'object', properties: {}, additionalProperties: false };
  return {
    definition: {
      ...controlToolDefinition(
        'mcp_list',
        'List MCP servers with state, tool count, last error and restarts.',
        parameters,
        [],
        domain,
      ),
      idempotent: true,
    },
    execute: async () => ({ servers: manager.list() }),
  };
}
