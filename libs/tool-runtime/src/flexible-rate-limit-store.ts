import type { RateLimit } from '@talon/contracts';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimitCount, RateLimitStore } from './rate-limit-store.js';

/** What {@link FlexibleRateLimitStore} asks its factory for: one rate-limiter-flexible limiter per limit. */
export interface FlexibleLimiterOptions {
  points: number;
  /** Seconds (fractions allowed), as rate-limiter-flexible counts. */
  duration: number;
  keyPrefix: string;
}

/**
 * A {@link RateLimitStore} on rate-limiter-flexible (its PostgreSQL store in production, its memory store in
 * tests): one limiter per distinct limit, so that a changed limit starts a fresh count. A refused consume is
 * still counted by the library; its count is what the caller needs, so it is returned, not thrown.
 */
export class FlexibleRateLimitStore implements RateLimitStore {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly create: (options: FlexibleLimiterOptions) => RateLimiterAbstract) {}

  async add(key: string, points: number, limit: RateLimit): Promise<RateLimitCount> {
    const id = `${limit.calls}-${limit.perMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = this.create({ points: limit.calls, duration: limit.perMs / 1000, keyPrefix: `talon-${id}` });
      this.limiters.set(id, limiter);
    }
    try {
      const res = await limiter.consume(key, points);
      return { counted: res.consumedPoints, msBeforeReset: res.msBeforeNext };
    } catch (error) {
      if (error instanceof RateLimiterRes)
        return { counted: error.consumedPoints, msBeforeReset: error.msBeforeNext };
      throw error;
    }
  }
}
