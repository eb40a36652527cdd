import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The session already has the maximum number of approvals waiting for a decision. */
export class TooManyPendingApprovalsError extends TalonError {
  constructor(sessionId: string, limit: number) {
    super(
      ERROR_CODES.RATE_LIMITED,
      `Session ${sessionId} already has ${limit} approvals pending; approve or deny some before more calls can ask.`,
      { details: { sessionId, limit } },
    );
  }
}
