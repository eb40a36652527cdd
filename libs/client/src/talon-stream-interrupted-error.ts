import { CLIENT_ERROR_CODES, TalonError } from './talon-error.js';

/**
 * A chat stream that ended before its turn did (connection cut, server restart). The turn goes on
 * server-side: `client.chat.resume(sessionId, lastEventId)` picks the events up after `lastEventId`.
 */
export class TalonStreamInterruptedError extends TalonError {
  readonly sessionId: string;
  readonly lastEventId: string | undefined;

  constructor(sessionId: string, lastEventId: string | undefined, cause?: unknown) {
    super(
      CLIENT_ERROR_CODES.STREAM_INTERRUPTED,
      `The event stream of session ${sessionId} ended before the turn did${lastEventId ? ` (last event ${lastEventId})` : ''}. Resume it with client.chat.resume(sessionId, lastEventId).`,
      { retryable: true, details: { sessionId, lastEventId }, cause },
    );
    this.sessionId = sessionId;
    this.lastEventId = lastEventId;
  }
}
