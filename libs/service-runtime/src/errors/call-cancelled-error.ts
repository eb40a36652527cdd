import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The caller of a call gave up (cancelled, deadline passed, worker declared lost) and the worker stopped it. */
export class CallCancelledError extends TalonError {
  constructor(callId: string, reason: string) {
    super(ERROR_CODES.TIMEOUT, `Call ${callId} was cancelled by its caller (${reason}); nothing to do.`, {
      details: { callId, reason: 'cancelled', why: reason },
      retryable: false,
    });
  }
}
