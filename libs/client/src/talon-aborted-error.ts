import { CLIENT_ERROR_CODES, TalonError } from './talon-error.js';

/** The caller's AbortSignal fired before the call or stream finished. */
export class TalonAbortedError extends TalonError {
  constructor(what: string, reason?: unknown) {
    super(CLIENT_ERROR_CODES.ABORTED, `${what} was aborted by the caller.`, { cause: reason });
  }
}
