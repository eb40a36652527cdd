import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The `state` of an OAuth redirect is not the one Talon sent: the code is refused (possible forgery or a stale link). */
export class AuthorizationStateMismatchError extends TalonError {
  constructor(server: string) {
    super(
      ERROR_CODES.POLICY_DENIED,
      `The OAuth state for MCP server "${server}" does not match the pending authorization: use the code and state of the latest authorization URL shown by mcp.list, or run mcp.start for a new one.`,
      { details: { server } },
    );
  }
}
