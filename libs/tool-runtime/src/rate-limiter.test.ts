import { describe, expect, it } from '@jest/globals';
import { RateLimitedError } from './errors/rate-limited-error.js';
import { SlidingWindowRateLimiter } from './rate-limiter.js';

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

describe('SlidingWindowRateLimiter', () => {
  it('allows `calls` per window and then says when to retry', () => {
    const time = clock();
    const limiter = new SlidingWindowRateLimiter({ now: time.now });
    const limit = { calls: 3, perMs: 1000 };
    limiter.take('t', 'k', limit);
    time.state.now += 100;
    limiter.take('t', 'k', limit);
    limiter.take('t', 'k', limit);
    time.state.now += 100;
    try {
      limiter.take('t', 'k', limit);
      throw new Error('unreachable');
    } catch (error) {
      expect(error).toBeInstanceOf(RateLimitedError);
      const limited = error as RateLimitedError;
      expect(limited.code).toBe('RATE_LIMITED');
      expect(limited.retryable).toBe(true);
      expect(limited.details.retryAfterMs).toBe(800);
    }
    time.state.now += 800;
    expect(() => limiter.take('t', 'k', limit)).not.toThrow();
  });

  it('is a sliding window: no burst of 2× at a window boundary', () => {
    const time = clock();
    const limiter = new SlidingWindowRateLimiter({ now: time.now });
    const limit = { calls: 2, perMs: 1000 };
    time.state.now += 900;
    limiter.take('t', 'k', limit);
    limiter.take('t', 'k', limit);
    time.state.now += 200; // a fixed window would have reset here
    expect(() => limiter.take('t', 'k', limit)).toThrow(RateLimitedError);
  });

  it('keeps keys apart and does not count refused calls', () => {
    const time = clock();
    const limiter = new SlidingWindowRateLimiter({ now: time.now });
    const limit = { calls: 1, perMs: 1000 };
    limiter.take('t', 'session-a', limit);
    expect(() => limiter.take('t', 'session-b', limit)).not.toThrow();
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect(() => limiter.take('t', 'session-a', limit)).toThrow(RateLimitedError);
    time.state.now += 1000;
    expect(() => limiter.take('t', 'session-a', limit)).not.toThrow();
  });

  it('sweeps idle keys', () => {
    const time = clock();
    const limiter = new SlidingWindowRateLimiter({ now: time.now, sweepEvery: 10 });
    for (let index = 0; index < 9; index += 1) limiter.take('t', `k${index}`, { calls: 1, perMs: 50 });
    expect(limiter.trackedKeys).toBe(9);
    time.state.now += 100;
    limiter.take('t', 'fresh', { calls: 1, perMs: 50 });
    expect(limiter.trackedKeys).toBe(1);
  });
});
