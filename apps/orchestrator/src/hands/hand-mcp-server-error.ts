import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A hand names an MCP server that would not start (or whose tools did not appear) when its run began. */
export class HandMcpServerError extends TalonError {
  constructor(hand: string, server: string, reason: string, cause?: unknown) {
    super(
      ERROR_CODES.UNAVAILABLE,
      `Hand "${hand}" needs the MCP server "${server}", which ${reason}; check its definition and state with mcp.list, start it with mcp.start, then run the hand again.`,
      { details: { hand, server }, ...(cause === undefined ? {} : { cause }) },
    );
  }
}
