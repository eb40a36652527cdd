import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** An artifact does not match its registry entry (sha256 or WIT version). */
export class IntegrityMismatchError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.INTEGRITY_MISMATCH, message, options);
  }
}
