import type { RateLimit } from '@talon/contracts';

/** What a shared counter answers when `points` were added to a key. */
export interface RateLimitCount {
  /** The key's count in its current window after this addition (this addition included). */
  counted: number;
  /** Time until the key's current window ends and its count starts again from 0. */
  msBeforeReset: number;
}

/**
 * A counter shared by every orchestrator: adds `points` to `key` in its fixed window of `limit.perMs`
 * atomically and says what the count became. Counting past `limit.calls` is allowed; the caller decides.
 */
export interface RateLimitStore {
  add(key: string, points: number, limit: RateLimit): Promise<RateLimitCount>;
}
