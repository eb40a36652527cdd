import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A request got no reply before its deadline. */
export class RequestTimeoutError extends TalonError {
  constructor(subject: string, timeoutMs: number) {
    super(
      ERROR_CODES.TIMEOUT,
      `No reply on ${subject} within ${timeoutMs} ms; the service may be overloaded or was stopped mid-call.`,
      {
        details: { subject, timeoutMs },
        retryable: true,
      },
    );
  }
}
