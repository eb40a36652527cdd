import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The request body exceeded the limit. */
export class PayloadTooLargeError extends TalonError {
  constructor(bytes: number, limit: number) {
    super(
      ERROR_CODES.PAYLOAD_TOO_LARGE,
      `The payload is ${bytes} bytes; the limit is ${limit}. Send less, or raise TALON_MAX_PAYLOAD_BYTES.`,
      {
        details: { bytes, limit },
      },
    );
  }
}
