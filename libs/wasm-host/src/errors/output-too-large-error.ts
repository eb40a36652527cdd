import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** A component returned more output than `limits.max_output_bytes` allows. */
export class OutputTooLargeError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.PAYLOAD_TOO_LARGE, message, options);
  }
}
