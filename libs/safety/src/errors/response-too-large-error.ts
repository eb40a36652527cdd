import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A response body grew past the byte cap; the transfer was aborted. */
export class ResponseTooLargeError extends TalonError {
  constructor(url: string, maxBytes: number) {
    super(
      ERROR_CODES.PAYLOAD_TOO_LARGE,
      `Response from ${url} exceeded ${maxBytes} bytes and was aborted. Request a smaller resource or a range.`,
      {
        details: { url, maxBytes },
      },
    );
  }
}
