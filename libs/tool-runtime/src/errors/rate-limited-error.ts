import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Too many calls of one tool in its window; retry after `details.retryAfterMs`. */
export class RateLimitedError extends TalonError {
  declare readonly details: { tool: string; retryAfterMs: number; calls: number; perMs: number };

  constructor(tool: string, retryAfterMs: number, calls: number, perMs: number) {
    super(
      ERROR_CODES.RATE_LIMITED,
      `Tool "${tool}" allows ${calls} calls per ${perMs} ms; retry in ${retryAfterMs} ms.`,
      { details: { tool, retryAfterMs, calls, perMs }, retryable: true },
    );
  }
}
