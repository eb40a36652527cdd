import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** No API method of that name. */
export class UnknownMethodError extends TalonError {
  constructor(method: string, known: readonly string[]) {
    super(ERROR_CODES.UNKNOWN_METHOD, `Unknown method "${method}". Known methods: ${known.join(', ')}.`, {
      details: { method, known },
    });
  }
}
