import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** An artifact download exceeded its byte cap. */
export class ArtifactTooLargeError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.PAYLOAD_TOO_LARGE, message, options);
  }
}
