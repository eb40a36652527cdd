import type { RateLimit } from '@talon/contracts';
import { RateLimitedError } from './errors/rate-limited-error.js';
import type { CallRateLimiter } from './call-rate-limiter.js';

/** Options of {@link SlidingWindowRateLimiter}. */
export interface RateLimiterOptions {
  /** Clock in epoch milliseconds; tests pass a fake one. Default `Date.now`. */
  now?: () => number;
  /** Keys idle longer than their window are swept every this many calls. Default 1000. */
  sweepEvery?: number;
}

/** Default of {@link RateLimiterOptions.sweepEvery}. */
export const DEFAULT_SWEEP_EVERY = 1000;

interface Window {
  perMs: number;
  /** Start times of the calls still inside the window, oldest first. */
  stamps: number[];
}

/**
 * An exact sliding-window limiter: at most `calls` in any `perMs` span, per key (a tool, or a tool within a
 * session). Memory is one timestamp per call still inside its window; idle keys are swept.
 */
export class SlidingWindowRateLimiter implements CallRateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;
  private readonly sweepEvery: number;
  private callsSinceSweep = 0;

  constructor(options: RateLimiterOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sweepEvery = options.sweepEvery ?? DEFAULT_SWEEP_EVERY;
  }

  /**
   * Counts one call of `tool` under `key`, or throws {@link RateLimitedError} (with `retryAfterMs`)
   * when the window is full. A refused call is not counted.
   */
  take(tool: string, key: string, limit: RateLimit): void {
    const now = this.now();
    if ((this.callsSinceSweep += 1) >= this.sweepEvery) this.sweep(now);
    let window = this.windows.get(key);
    if (!window) {
      window = { perMs: limit.perMs, stamps: [] };
      this.windows.set(key, window);
    }
    window.perMs = limit.perMs;
    const stamps = window.stamps;
    let expired = 0;
    while (expired < stamps.length && stamps[expired]! <= now - limit.perMs) expired += 1;
    if (expired > 0) stamps.splice(0, expired);
    if (stamps.length >= limit.calls) {
      const retryAfterMs = Math.max(1, stamps[stamps.length - limit.calls]! + limit.perMs - now);
      throw new RateLimitedError(tool, retryAfterMs, limit.calls, limit.perMs);
    }
    stamps.push(now);
  }

  /** Forgets every window (e.g. after a configuration change). */
  reset(): void {
    this.windows.clear();
  }

  /** Number of keys currently tracked. */
  get trackedKeys(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    this.callsSinceSweep = 0;
    for (const [key, window] of this.windows) {
      const newest = window.stamps[window.stamps.length - 1];
      if (newest === undefined || newest <= now - window.perMs) this.windows.delete(key);
    }
  }
}
