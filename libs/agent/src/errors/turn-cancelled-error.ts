import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The reason a turn's signal carries when someone stopped it (`sessions.cancel`). */
export class TurnCancelledError extends TalonError {
  constructor(sessionId: string) {
    super(ERROR_CODES.TIMEOUT, `The turn of session ${sessionId} was cancelled by sessions.cancel.`, {
      details: { sessionId, reason: 'cancelled' },
      retryable: false,
    });
  }
}
