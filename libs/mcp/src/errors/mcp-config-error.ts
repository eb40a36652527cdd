import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** An MCP server definition (registry file or user config) is invalid; `details` lists the violations. */
export class McpConfigError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.SCHEMA_VIOLATION, message, options);
  }
}
