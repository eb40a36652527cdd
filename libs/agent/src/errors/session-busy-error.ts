import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A turn is already running (or waiting for an approval) in the session. */
export class SessionBusyError extends TalonError {
  constructor(sessionId: string) {
    super(
      ERROR_CODES.NAME_CONFLICT,
      `A turn is already running in session ${sessionId}; wait for it to finish, answer its pending approval, or abort it before sending another message.`,
      { details: { sessionId }, retryable: true },
    );
  }
}
