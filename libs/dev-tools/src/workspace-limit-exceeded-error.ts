import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** An input is larger than the workspace cap allows (content to write, a patch, a pattern). */
export class WorkspaceLimitExceededError extends TalonError {
  constructor(what: string, limit: number, actual: number) {
    super(
      ERROR_CODES.PAYLOAD_TOO_LARGE,
      `${what} is ${actual}, above the limit of ${limit}; split the work into smaller pieces.`,
      {
        details: { what, limit, actual },
      },
    );
  }
}
