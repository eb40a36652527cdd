import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/**
 * The shared rate-limit count (PostgreSQL) did not answer: the call is refused rather than let through
 * uncounted, since every orchestrator would then admit its own full limit.
 */
export class RateLimitStoreUnavailableError extends TalonError {
  constructor(cause: unknown) {
    super(
      ERROR_CODES.UNAVAILABLE,
      `The shared rate-limit count could not be reached (${cause instanceof Error ? cause.message : String(cause)}); ` +
        'the call was not run. Retry shortly; if it persists, check the database the orchestrators share.',
      { retryable: true, cause },
    );
  }
}
