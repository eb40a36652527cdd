import type { RateLimit } from '@talon/contracts';

/**
 * Counts one call of `tool` under `key` (a tool, or a tool within a session) against `limit`, or throws
 * `RateLimitedError` (with `retryAfterMs`). A limiter local to the process may answer synchronously; one
 * backed by a shared store returns a promise when it has to ask the store.
 */
export interface CallRateLimiter {
  take(tool: string, key: string, limit: RateLimit): void | Promise<void>;
}

/** Which calls share one count: every call of the tool, or the calls of the tool within one session. */
export type RateLimitScope = 'session' | 'tool';

/** A limit with the scope it is counted in (an operator's rule; a tool's declared limit uses the default scope). */
export interface ScopedRateLimit extends RateLimit {
  scope: RateLimitScope;
}
