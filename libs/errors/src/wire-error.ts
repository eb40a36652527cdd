import { ERROR_CODES, type ErrorCode, type WireError } from '@talon/contracts';
import { TalonError } from './talon-error.js';

/** Turns anything thrown into a wire error; unknown errors become INTERNAL without leaking internals. */
export function toWireError(error: unknown): WireError {
  if (TalonError.isInstance(error)) return error.toWire();
  return {
    code: ERROR_CODES.INTERNAL,
    message: 'Internal error in Talon; see the service log for the call id.',
  };
}

/** Rebuilds a typed error from a wire error received from another service. */
export function fromWireError(wire: WireError): TalonError {
  return new TalonError(wire.code as ErrorCode, wire.message, {
    details: wire.details,
    retryable: wire.retryable,
  });
}
