/** Injection tokens of the orchestrator's MCP integration. */
export const MCP_CONTROL_CLIENT = Symbol('MCP_CONTROL_CLIENT');
export const MCP_TOOL_CALLER = Symbol('MCP_TOOL_CALLER');
export const MCP_AUTHORIZATION_CLIENT = Symbol('MCP_AUTHORIZATION_CLIENT');
