import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A request larger than the NATS server's `max_payload`: the server would refuse to carry it. */
export class RequestTooLargeError extends TalonError {
  constructor(subject: string, bytes: number, maxPayload: number) {
    super(
      ERROR_CODES.PAYLOAD_TOO_LARGE,
      `The request to ${subject} is ${bytes} bytes, more than the NATS server's max_payload of ${maxPayload}. Send less (write a large file in parts), or raise max_payload on the NATS server.`,
      { details: { bytes, limit: maxPayload, direction: 'request' } },
    );
  }
}
