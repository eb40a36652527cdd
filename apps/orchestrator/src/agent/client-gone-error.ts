import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The client of a streamed turn disconnected before it finished; the turn is cancelled. */
export class ClientGoneError extends TalonError {
  constructor(sessionId: string) {
    super(ERROR_CODES.TIMEOUT, `The client of session ${sessionId} disconnected; its turn was cancelled.`, {
      details: { sessionId, reason: 'cancelled' },
      retryable: false,
    });
  }
}
