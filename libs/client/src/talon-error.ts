import type { ErrorCode, WireError } from '@talon/contracts';

const MARKER = Symbol.for('talon.client.error');

/**
 * Codes the client raises itself, kept apart from the wire codes the server sends: the reply did not
 * match the contract, a chat stream ended before its turn did, the caller aborted.
 */
export const CLIENT_ERROR_CODES = {
  /** The server's reply did not match the contract (not an envelope, or `data` off its schema). */
  PROTOCOL_ERROR: 'PROTOCOL_ERROR',
  /** A chat stream ended before the turn did; resume with `client.chat.resume(sessionId, lastEventId)`. */
  STREAM_INTERRUPTED: 'STREAM_INTERRUPTED',
  /** The caller's AbortSignal fired. */
  ABORTED: 'ABORTED',
  /** The server could not be reached at all (connection refused, DNS, TLS). */
  CONNECTION_FAILED: 'CONNECTION_FAILED',
} as const;

/** A code the client raises itself. */
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];

/** Every code a {@link TalonError} may carry: a wire code from the server, or a client code. */
export type TalonErrorCode = ErrorCode | ClientErrorCode;

/** Options of {@link TalonError}. */
export interface TalonErrorOptions {
  details?: unknown;
  retryable?: boolean;
  /** The API method the error belongs to. */
  method?: string;
  /** The call id (`talon-call-id`), to find the call in the server's logs. */
  callId?: string;
  /** The error exactly as the server sent it, when it came from a reply. */
  wire?: WireError;
  cause?: unknown;
}

/**
 * Every error the client throws. Switch on `code` (a wire code from `ERROR_CODES` or one of
 * {@link CLIENT_ERROR_CODES}); `retryable` says whether the same call may succeed later.
 * `isInstance` works across bundles (it checks a registered symbol, not the prototype).
 */
export class TalonError extends Error {
  readonly [MARKER] = true;
  readonly code: TalonErrorCode;
  readonly details?: unknown;
  readonly retryable: boolean;
  readonly method?: string;
  readonly callId?: string;
  /** The error exactly as the server sent it (absent for errors the client raised itself). */
  readonly wire?: WireError;

  constructor(code: TalonErrorCode, message: string, options: TalonErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
    this.retryable = options.retryable ?? false;
    if (options.method !== undefined) this.method = options.method;
    if (options.callId !== undefined) this.callId = options.callId;
    if (options.wire !== undefined) this.wire = options.wire;
  }

  static isInstance(value: unknown): value is TalonError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
