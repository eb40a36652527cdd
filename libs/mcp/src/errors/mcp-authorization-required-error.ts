import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** A remote MCP server needs a person to complete an OAuth authorization; `details.authorizationUrl` is where to send them. */
export class McpAuthorizationRequiredError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.POLICY_DENIED, message, options);
  }
}
