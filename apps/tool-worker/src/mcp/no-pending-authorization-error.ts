import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** This tool-worker has no OAuth authorization waiting for that server (another replica may have). */
export class NoPendingAuthorizationError extends TalonError {
  constructor(server: string) {
    super(
      ERROR_CODES.NOT_FOUND,
      `No OAuth authorization of MCP server "${server}" is pending on this tool-worker: run mcp.start for a fresh authorization URL.`,
      { details: { server } },
    );
  }
}
