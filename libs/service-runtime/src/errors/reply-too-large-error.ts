import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A reply larger than the NATS server's `max_payload`: it would be dropped on the way back. */
export class ReplyTooLargeError extends TalonError {
  constructor(bytes: number, maxPayload: number) {
    super(
      ERROR_CODES.PAYLOAD_TOO_LARGE,
      `The reply is ${bytes} bytes, more than the NATS server's max_payload of ${maxPayload}. Ask for less (a smaller range, a narrower query).`,
      { details: { bytes, limit: maxPayload, direction: 'reply' } },
    );
  }
}
