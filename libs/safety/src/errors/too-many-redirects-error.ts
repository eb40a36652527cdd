import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A request was redirected more often than allowed. */
export class TooManyRedirectsError extends TalonError {
  constructor(url: string, maxRedirects: number, chain: readonly string[]) {
    super(
      ERROR_CODES.POLICY_DENIED,
      `Request to ${url} was redirected more than ${maxRedirects} times. Use the final URL directly.`,
      {
        details: { url, maxRedirects, chain },
      },
    );
  }
}
