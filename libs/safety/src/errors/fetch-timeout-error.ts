import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** An outbound request (all hops and the body together) did not finish within its time cap. */
export class FetchTimeoutError extends TalonError {
  constructor(url: string, timeoutMs: number) {
    super(
      ERROR_CODES.TIMEOUT,
      `Request to ${url} did not finish within ${timeoutMs} ms. Retry later or raise the time cap.`,
      {
        details: { url, timeoutMs },
        retryable: true,
      },
    );
  }
}
