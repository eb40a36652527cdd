/** Lifecycle states of one MCP server. `down` means it failed or crashed (see `lastError`). */
export const MCP_SERVER_STATES = ['stopped', 'starting', 'running', 'stopping', 'down'] as const;
/** One lifecycle state. */
export type McpServerState = (typeof MCP_SERVER_STATES)[number];

/** What `mcp_list` shows for one server. */
export interface McpServerStatus {
  name: string;
  displayName: string;
  transport: 'stdio' | 'streamable-http' | 'sse';
  state: McpServerState;
  toolCount: number;
  /** The last failure (crash, failed start, failed health check), with stderr when there was some. */
  lastError?: string;
  /** The last stderr lines of a stdio server (up to 10 here; more are kept for crash errors). */
  lastStderr: string[];
  pid?: number;
  /** Automatic restarts since this connection was created. */
  restarts: number;
  startedAt?: string;
  lastUsedAt?: string;
  /** When the next automatic restart is due, if one is scheduled. */
  nextRestartAt?: string;
}
