import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** `install` of a tool that is already installed; use `upgrade`. */
export class ToolAlreadyInstalledError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.NAME_CONFLICT, message, options);
  }
}
