// The status types cross NATS (`mcp.list`), so their single source is the contracts package.
export {
  MCP_SERVER_STATES,
  type McpServerState,
  type McpServerStatus,
  type McpServerListing,
  type UnusableMcpTool,
} from '@talon/contracts';
