import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** The component ran and returned an `error` instead of an `output`. */
export class ToolReportedError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.TOOL_FAILED, message, options);
  }
}
