import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** A host import the capabilities do not grant; the guest receives the message as an error string. */
export class HostImportDeniedError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.POLICY_DENIED, message, options);
  }
}
