/** Injection tokens of the tool-worker's MCP source. */
export const MCP_TOOL_SOURCE = Symbol('MCP_TOOL_SOURCE');
export const MCP_CONTROL_HOST = Symbol('MCP_CONTROL_HOST');
export const MCP_OAUTH = Symbol('MCP_OAUTH');
export const MCP_AUTHORIZE_HOST = Symbol('MCP_AUTHORIZE_HOST');
