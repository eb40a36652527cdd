import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** An MCP server did not answer a call before the call's timeout. */
export class McpTimeoutError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.TIMEOUT, message, options);
  }
}
