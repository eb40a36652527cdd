import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** The MCP server does not offer a tool with that name (now). */
export class McpUnknownToolError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.UNKNOWN_TOOL, message, options);
  }
}
