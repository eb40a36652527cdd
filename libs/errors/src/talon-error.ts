import type { ErrorCode, WireError } from '@talon/contracts';

const MARKER = Symbol.for('talon.error');

/** Options every Talon error accepts. */
export interface TalonErrorOptions {
  /** Structured, JSON-safe facts for the caller (violations, ids, limits). */
  details?: unknown;
  /** Whether the same call may succeed if retried. Defaults to false. */
  retryable?: boolean;
  cause?: unknown;
}

/**
 * Base of every typed error in Talon. Its `code` is the stable wire code; its message says what to do.
 * `isInstance` works across bundles and realms (it checks a registered symbol, not the prototype).
 */
export class TalonError extends Error {
  readonly [MARKER] = true;
  readonly code: ErrorCode;
  readonly details?: unknown;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: TalonErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
    this.retryable = options.retryable ?? false;
  }

  static isInstance(value: unknown): value is TalonError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  toWire(): WireError {
    const wire: WireError = { code: this.code, message: this.message };
    if (this.details !== undefined) wire.details = this.details;
    if (this.retryable) wire.retryable = true;
    return wire;
  }
}
