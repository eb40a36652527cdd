import { describe, expect, it } from '@jest/globals';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { FlexibleRateLimitStore } from './flexible-rate-limit-store.js';
import { LeasedRateLimiter, defaultLeaseSize } from './leased-rate-limiter.js';
import { RateLimitStoreUnavailableError } from './errors/rate-limit-store-unavailable-error.js';
import { RateLimitedError } from './errors/rate-limited-error.js';
import type { RateLimitStore } from './rate-limit-store.js';

/** One shared rate-limiter-flexible memory store, counting its round trips: what several orchestrators share. */
function sharedStore() {
  const store = new FlexibleRateLimitStore((options) => new RateLimiterMemory(options));
  const counted = {
    trips: 0,
    add: ((key, points, limit) => {
      counted.trips += 1;
      return store.add(key, points, limit);
    }) as RateLimitStore['add'],
  };
  return counted;
}

async function admitted(
  limiter: LeasedRateLimiter,
  key: string,
  calls: number,
  limit = { calls: 100, perMs: 60_000 },
) {
  let ok = 0;
  const refusals: RateLimitedError[] = [];
  await Promise.all(
    Array.from({ length: calls }, async () => {
      try {
        await limiter.take('echo', key, limit);
        ok += 1;
      } catch (error) {
        if (!(error instanceof RateLimitedError)) throw error;
        refusals.push(error);
      }
    }),
  );
  return { ok, refusals };
}

describe('LeasedRateLimiter', () => {
  it('lets three processes sharing one store admit the limit once in total, not three times', async () => {
    const store = sharedStore();
    const processes = [
      new LeasedRateLimiter(store),
      new LeasedRateLimiter(store),
      new LeasedRateLimiter(store),
    ];
    const results = await Promise.all(processes.map((limiter) => admitted(limiter, 'echo', 80)));
    const total = results.reduce((sum, result) => sum + result.ok, 0);
    // 100 calls a minute, leases of 3: at most 2 stranded per process.
    expect(total).toBeLessThanOrEqual(100);
    expect(total).toBeGreaterThanOrEqual(100 - 3 * (defaultLeaseSize({ calls: 100, perMs: 60_000 }) - 1));
    for (const result of results) {
      for (const refusal of result.refusals) {
        expect(refusal.code).toBe('RATE_LIMITED');
        expect(refusal.details.retryAfterMs).toBeGreaterThan(0);
        expect(refusal.details.retryAfterMs).toBeLessThanOrEqual(60_000);
      }
    }
  });

  it('leases in batches so that most calls need no round trip, and refuses a full window locally', async () => {
    const store = sharedStore();
    const limiter = new LeasedRateLimiter(store, { leaseSize: () => 10 });
    const first = await admitted(limiter, 'echo', 100, { calls: 1000, perMs: 60_000 });
    expect(first.ok).toBe(100);
    expect(store.trips).toBe(10);
    const small = new LeasedRateLimiter(store);
    const full = await admitted(small, 'small', 10, { calls: 4, perMs: 60_000 });
    expect(full.ok).toBe(4);
    const tripsWhenFull = store.trips;
    await expect(
      Promise.resolve().then(() => small.take('echo', 'small', { calls: 4, perMs: 60_000 })),
    ).rejects.toBeInstanceOf(RateLimitedError);
    expect(store.trips).toBe(tripsWhenFull);
  });

  it('keeps only the share of a lease that fits under the limit', async () => {
    const store = sharedStore();
    const limit = { calls: 5, perMs: 60_000 };
    const a = new LeasedRateLimiter(store, { leaseSize: () => 3 });
    const b = new LeasedRateLimiter(store, { leaseSize: () => 3 });
    expect((await admitted(a, 'k', 3, limit)).ok).toBe(3);
    // b's lease of 3 finds 2 left: it admits 2, then refuses.
    expect((await admitted(b, 'k', 3, limit)).ok).toBe(2);
    expect((await admitted(a, 'k', 1, limit)).ok).toBe(0);
  });

  it('starts a new count when the window ends, and counts keys apart', async () => {
    let now = 1_000_000;
    const store: RateLimitStore = {
      // A fixed-window store on the fake clock, as the library keeps it.
      add: (() => {
        const windows = new Map<string, { count: number; endsAt: number }>();
        return async (key, points, limit) => {
          let window = windows.get(key);
          if (!window || window.endsAt <= now)
            windows.set(key, (window = { count: 0, endsAt: now + limit.perMs }));
          window.count += points;
          return { counted: window.count, msBeforeReset: window.endsAt - now };
        };
      })(),
    };
    const limiter = new LeasedRateLimiter(store, { now: () => now });
    const limit = { calls: 2, perMs: 1000 };
    expect((await admitted(limiter, 'a', 3, limit)).ok).toBe(2);
    expect((await admitted(limiter, 'b', 3, limit)).ok).toBe(2);
    now += 1001;
    expect((await admitted(limiter, 'a', 3, limit)).ok).toBe(2);
  });

  it('refuses with a typed retryable error when the shared store does not answer', async () => {
    const limiter = new LeasedRateLimiter({
      add: async () => {
        throw new Error('connection refused');
      },
    });
    const taking = Promise.resolve().then(() => limiter.take('echo', 'echo', { calls: 5, perMs: 1000 }));
    await expect(taking).rejects.toBeInstanceOf(RateLimitStoreUnavailableError);
    await expect(taking).rejects.toMatchObject({ code: 'UNAVAILABLE', retryable: true });
  });

  it('stores a session key hashed, whatever its characters', async () => {
    const keys: string[] = [];
    const limiter = new LeasedRateLimiter({
      add: async (key) => {
        keys.push(key);
        return { counted: 1, msBeforeReset: 1000 };
      },
    });
    await limiter.take('echo', `echo\u0000${'x'.repeat(500)}`, { calls: 5, perMs: 1000 });
    expect(keys[0]).toMatch(/^echo:session:[A-Za-z0-9_-]{43}$/);
  });
});
