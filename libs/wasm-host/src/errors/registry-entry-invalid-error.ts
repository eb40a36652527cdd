import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** A registry entry or the installed-state file does not match its schema. */
export class RegistryEntryInvalidError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.SCHEMA_VIOLATION, message, options);
  }
}
