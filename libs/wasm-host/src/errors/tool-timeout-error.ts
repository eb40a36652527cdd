import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** A component call ran past its deadline; its worker was terminated. */
export class ToolTimeoutError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.TIMEOUT, message, options);
  }
}
