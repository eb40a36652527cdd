import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The request body nests arrays and objects deeper than the limit. */
export class PayloadTooDeepError extends TalonError {
  constructor(limit: number) {
    super(
      ERROR_CODES.PAYLOAD_TOO_LARGE,
      `The payload nests objects and arrays more than ${limit} levels deep. Send a flatter payload.`,
      { details: { limit: 'maxDepth', maxDepth: limit } },
    );
  }
}
