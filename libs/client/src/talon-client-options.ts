import type { NatsConnection } from '@nats-io/transport-node';

/** How long one call may take before it fails with TIMEOUT (retryable). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * How long the first attempt of an idempotent call may take before it is sent again, when retries are on.
 * A request that never gets an answer (NATS routed it to an orchestrator that had just died) then costs
 * this, not the whole `timeoutMs`; the retries wait the whole `timeoutMs`, so a slow but live server still
 * answers. A payload that names its own `timeoutMs` (`system.status` waits that long for the services)
 * gets at least that plus {@link FIRST_ATTEMPT_MARGIN_MS}.
 */
export const DEFAULT_FIRST_ATTEMPT_TIMEOUT_MS = 5_000;
/** What a first attempt gets beyond the wait its payload asks the server for. */
export const FIRST_ATTEMPT_MARGIN_MS = 1_000;
/** How long a chat stream may stay silent (no event) before it counts as cut. */
export const DEFAULT_STREAM_IDLE_MS = 120_000;
/** How often an idempotent call is retried after a retryable error (NO_RESPONDERS, TIMEOUT, UNAVAILABLE, RATE_LIMITED). */
export const DEFAULT_RETRIES = 2;
/** The wait before the first retry; it doubles on each one (and RATE_LIMITED's `retryAfterMs` wins). */
export const DEFAULT_RETRY_DELAY_MS = 200;

/** Connect options of the NATS transport when the client opens its own connection. */
export interface NatsServerOptions {
  servers: string | string[];
  user?: string;
  pass?: string;
  /** Connection name shown by the server. Default: `talon-client`. */
  name?: string;
}

/** Options of the HTTP transport. */
export interface HttpServerOptions {
  /** Base URL of the orchestrator's HTTP API, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** A fetch implementation. Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/**
 * Options of {@link createTalonClient}. Give exactly one of `nats` or `http`.
 */
export interface TalonClientOptions {
  /** An open NATS connection (as the `api` user), or how to open one. */
  nats?: NatsConnection | NatsServerOptions;
  /** The HTTP API's base URL, or its options. */
  http?: string | HttpServerOptions;
  /** The API token: `talon-token` header on NATS, `Authorization: Bearer` on HTTP. */
  token?: string;
  /** Default: {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Default: {@link DEFAULT_RETRIES}. Only methods the contract marks idempotent are retried. */
  retries?: number;
  /**
   * The first attempt of an idempotent call that may be retried waits at most this long (never more than
   * `timeoutMs`); the retries wait `timeoutMs`. Default: {@link DEFAULT_FIRST_ATTEMPT_TIMEOUT_MS}. Set it
   * to `timeoutMs` to give every attempt the same time.
   */
  firstAttemptTimeoutMs?: number;
  /** Default: {@link DEFAULT_RETRY_DELAY_MS}. */
  retryDelayMs?: number;
  /** Default: {@link DEFAULT_STREAM_IDLE_MS}. */
  streamIdleMs?: number;
  /** Check every reply against the contract's schema (a mismatch is a TalonProtocolError). Default: true. */
  validateReplies?: boolean;
}

/** Options of one call. */
export interface CallOptions {
  /** Overrides the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Overrides the client's `retries` (still only for idempotent methods). */
  retries?: number;
  /** Overrides the client's `firstAttemptTimeoutMs`. */
  firstAttemptTimeoutMs?: number;
  /** Cancels the call (the promise rejects with TalonAbortedError). */
  signal?: AbortSignal;
  /** Sent as `talon-call-id`, to find the call in the server's logs. */
  callId?: string;
}

/** The options after defaults, validated once. */
export interface ResolvedClientOptions {
  token: string | undefined;
  timeoutMs: number;
  retries: number;
  firstAttemptTimeoutMs: number;
  retryDelayMs: number;
  streamIdleMs: number;
  validateReplies: boolean;
}

function positive(name: string, value: number | undefined, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0))
    throw new TypeError(
      `createTalonClient: ${name} must be a ${allowZero ? 'non-negative' : 'positive'} number (got ${value}).`,
    );
  return value;
}

/** Applies the documented defaults and refuses nonsense with a message that says what to fix. */
export function resolveClientOptions(options: TalonClientOptions): ResolvedClientOptions {
  if ((options.nats === undefined) === (options.http === undefined))
    throw new TypeError(
      'createTalonClient: give exactly one of `nats` (a connection or servers) or `http` (a URL).',
    );
  if (options.token !== undefined && (typeof options.token !== 'string' || options.token.length === 0))
    throw new TypeError('createTalonClient: `token` must be a non-empty string (or left out).');
  return {
    token: options.token,
    timeoutMs: positive('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS),
    retries: Math.floor(positive('retries', options.retries, DEFAULT_RETRIES, true)),
    firstAttemptTimeoutMs: positive(
      'firstAttemptTimeoutMs',
      options.firstAttemptTimeoutMs,
      DEFAULT_FIRST_ATTEMPT_TIMEOUT_MS,
    ),
    retryDelayMs: positive('retryDelayMs', options.retryDelayMs, DEFAULT_RETRY_DELAY_MS, true),
    streamIdleMs: positive('streamIdleMs', options.streamIdleMs, DEFAULT_STREAM_IDLE_MS),
    validateReplies: options.validateReplies ?? true,
  };
}

/**
 * The time one attempt of a call may take: `timeoutMs`, except the first attempt of a call that will be
 * retried (see {@link DEFAULT_FIRST_ATTEMPT_TIMEOUT_MS}).
 */
export function attemptTimeoutMs(
  attempt: number,
  willRetry: boolean,
  timeoutMs: number,
  firstAttemptTimeoutMs: number,
  payload: unknown,
): number {
  if (attempt > 0 || !willRetry) return timeoutMs;
  const asked = (payload as { timeoutMs?: unknown } | null | undefined)?.timeoutMs;
  const floor = typeof asked === 'number' && Number.isFinite(asked) ? asked + FIRST_ATTEMPT_MARGIN_MS : 0;
  return Math.min(timeoutMs, Math.max(firstAttemptTimeoutMs, floor));
}
