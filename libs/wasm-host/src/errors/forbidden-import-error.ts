import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** A component imports an interface the policy does not allow (WASI, or anything beyond `talon:tool/host`). */
export class ForbiddenImportError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.POLICY_DENIED, message, options);
  }
}
