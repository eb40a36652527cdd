import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** An MCP tool ran and reported a failure (`isError: true`), or its result could not be read. */
export class McpToolFailedError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.TOOL_FAILED, message, options);
  }
}
