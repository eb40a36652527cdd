import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** An MCP server could not be started or reached, or is down after a crash; `details` carries its last error and stderr lines. */
export class McpServerUnavailableError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.UNAVAILABLE, message, options);
  }
}
