import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** The tool version was removed or replaced and takes no new calls. */
export class PoolClosedError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.UNAVAILABLE, message, options);
  }
}
