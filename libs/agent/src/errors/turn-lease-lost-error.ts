import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/**
 * This orchestrator no longer holds the lease of the session's turn (it could not renew it in time and
 * another orchestrator took it over): it must stop writing, because the new owner finishes the turn.
 */
export class TurnLeaseLostError extends TalonError {
  constructor(sessionId: string, owner: string) {
    super(
      ERROR_CODES.TURN_LEASE_LOST,
      `This orchestrator lost the turn lease of session ${sessionId}; another orchestrator finishes the turn. Follow talon.events.v1.session.${sessionId} or read the session's messages with sessions.get.`,
      { details: { sessionId, owner }, retryable: false },
    );
  }
}
