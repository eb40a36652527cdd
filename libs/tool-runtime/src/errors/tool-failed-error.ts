import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** The tool ran and reported a failure. Built-in tools extend this for their own failure kinds. */
export class ToolFailedError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.TOOL_FAILED, message, options);
  }
}
