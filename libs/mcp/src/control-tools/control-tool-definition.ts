import type { ToolDefinition, ToolDomain, ToolEffect } from '@talon/contracts';

/** The parameters of tools that name one server. */
export const SERVER_PARAMETERS = {
  type: 'object',
  properties: { server: { type: 'string', description: 'The MCP server name as configured' } },
  required: ['server'],
  additionalProperties: false,
};

/** A built-in definition for an MCP control tool (mcp_start, mcp_stop, mcp_list, mcp_call). */
export function controlToolDefinition(
  name: string,
  description: string,
  parameters: Record<string, unknown>,
  effects: ToolEffect[],
  domain: ToolDomain,
): ToolDefinition {
  return {
    name,
    description,
    parameters,
    effects,
    approval: 'never',
    timeoutMs: 60_000,
    domain,
    source: 'builtin',
    sensitiveParams: [],
    idempotent: false,
  };
}
