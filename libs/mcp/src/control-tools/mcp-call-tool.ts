import type { ToolDomain } from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import type { McpManager } from '../mcp-manager.js';
import { controlToolDefinition } from './control-tool-definition.js';

/**
 * `mcp_call`: calls `server.tool`. It declares the union of every server's effects and asks, per call,
 * for the approval of the tool it names (`always` for an unknown one), so going through it is never
 * looser than calling the MCP tool directly.
 */
export function createMcpCallTool(manager: McpManager, domain: ToolDomain): Tool {
  const effects = [...new Set(manager.list().flatMap((server) => manager.definitionOf(server.name).effects))];
  const parameters = {
    type: 'object',
    properties: { tool: { type: 'string', description: '`server.tool`' }, arguments: { type: 'object' } },
    required: ['tool'],
    additionalProperties: false,
  };
  return {
    definition: {
      ...controlToolDefinition(
        'mcp_call',
        'Call an MCP tool by its name `server.tool` with arguments.',
        parameters,
        effects,
        domain,
      ),
      approval: 'always',
    },
    approvalFor: (params) =>
      manager.tools().find((tool) => tool.definition.displayName === params.tool)?.definition.approval ??
      'always',
    execute: async (params, context) =>
      manager.call(String(params.tool), (params.arguments as Record<string, unknown> | undefined) ?? {}, {
        signal: context.signal,
      }),
  };
}
