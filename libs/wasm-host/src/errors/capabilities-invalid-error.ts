import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** A `*.capabilities.json` file does not match its schema or contradicts itself; `details` lists the violations. */
export class CapabilitiesInvalidError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.SCHEMA_VIOLATION, message, options);
  }
}
