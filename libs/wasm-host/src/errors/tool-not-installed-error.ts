import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** No installed (or registry) tool has that name. */
export class ToolNotInstalledError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.NOT_FOUND, message, options);
  }
}
