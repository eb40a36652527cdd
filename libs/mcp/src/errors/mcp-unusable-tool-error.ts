import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** An MCP tool cannot be called because its server declared something Talon cannot use safely (e.g. an input schema that is not valid JSON Schema). */
export class McpUnusableToolError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.TOOL_FAILED, message, options);
  }
}
