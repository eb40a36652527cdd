import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** The arguments of an MCP tool call do not match the server's input schema; `details.violations` lists them. */
export class McpInvalidInputError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.SCHEMA_VIOLATION, message, options);
  }
}
