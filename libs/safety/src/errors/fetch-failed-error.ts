import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** An outbound request failed in transport: refused connection, reset, TLS verification, bad response. */
export class FetchFailedError extends TalonError {
  constructor(url: string, reason: string, cause?: unknown) {
    super(
      ERROR_CODES.TOOL_FAILED,
      `Request to ${url} failed (${reason}). Check the URL, or retry if the server was briefly unreachable.`,
      {
        details: { url, reason },
        retryable: ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN'].includes(reason),
        cause,
      },
    );
  }
}
