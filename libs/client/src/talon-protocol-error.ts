import { CLIENT_ERROR_CODES, TalonError } from './talon-error.js';

/** A reply that does not match the contract: the client refuses it rather than hand back garbage. */
export class TalonProtocolError extends TalonError {
  constructor(method: string, problem: string, details?: unknown) {
    super(
      CLIENT_ERROR_CODES.PROTOCOL_ERROR,
      `The reply of ${method} does not match the contract (${problem}). Is the client older or newer than the server? Compare @talon/client with the server's /v1/openapi.json.`,
      { method, details },
    );
  }
}
