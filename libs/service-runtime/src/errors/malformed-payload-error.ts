import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The request body was not JSON. */
export class MalformedPayloadError extends TalonError {
  constructor(reason: string) {
    super(
      ERROR_CODES.MALFORMED_JSON,
      `The payload is not valid JSON (${reason}); send a UTF-8 JSON document.`,
      {
        details: { reason },
      },
    );
  }
}
