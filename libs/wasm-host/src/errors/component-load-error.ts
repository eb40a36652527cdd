import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** A component could not be transpiled, compiled or instantiated. */
export class ComponentLoadError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.TOOL_FAILED, message, options);
  }
}
