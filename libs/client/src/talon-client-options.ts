import type { NatsConnection } from '@nats-io/transport-node';

/** How long one call may take before it fails with TIMEOUT (retryable). */
export const DEFAULT_TIMEOUT_MS = 30_000;
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
    retryDelayMs: positive('retryDelayMs', options.retryDelayMs, DEFAULT_RETRY_DELAY_MS, true),
    streamIdleMs: positive('streamIdleMs', options.streamIdleMs, DEFAULT_STREAM_IDLE_MS),
    validateReplies: options.validateReplies ?? true,
  };
}
