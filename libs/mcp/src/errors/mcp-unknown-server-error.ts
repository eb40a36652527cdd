import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** No MCP server with that name is configured. */
export class McpUnknownServerError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.NOT_FOUND, message, options);
  }
}
