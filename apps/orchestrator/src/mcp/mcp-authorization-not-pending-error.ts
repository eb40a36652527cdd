import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** `mcp.authorize` found no tool-worker waiting for an OAuth authorization of that server. */
export class McpAuthorizationNotPendingError extends TalonError {
  constructor(server: string) {
    super(
      ERROR_CODES.NOT_FOUND,
      `No tool-worker is waiting for an OAuth authorization of MCP server "${server}": run mcp.start to get a fresh authorization URL, then call mcp.authorize with the code and state of its redirect.`,
      { details: { server } },
    );
  }
}
