import { createHash } from 'node:crypto';
import type { RateLimit } from '@talon/contracts';
import type { CallRateLimiter } from './call-rate-limiter.js';
import { RateLimitStoreUnavailableError } from './errors/rate-limit-store-unavailable-error.js';
import { RateLimitedError } from './errors/rate-limited-error.js';
import type { RateLimitStore } from './rate-limit-store.js';

/** Options of {@link LeasedRateLimiter}. */
export interface LeasedRateLimiterOptions {
  /** Clock in epoch milliseconds; tests pass a fake one. Default `Date.now`. */
  now?: () => number;
  /**
   * Calls leased per round trip for a limit of `calls`: a lease is the store's count of this process's share,
   * so a bigger one saves round trips but may strand up to `lease - 1` calls per key and window unused.
   * Default {@link defaultLeaseSize}.
   */
  leaseSize?: (limit: RateLimit) => number;
}

/** One call per lease up to 32 calls a window (where a stranded call matters), then 1/32 of the limit, at most 50. */
export function defaultLeaseSize(limit: RateLimit): number {
  return Math.max(1, Math.min(50, Math.floor(limit.calls / 32)));
}

interface Allotment {
  /** Calls this process may still admit in the current window. */
  left: number;
  /** When the store's window ends (epoch ms): what is left then is dropped. */
  endsAt: number;
  /** Set when the store said the window is full: refuse locally until `endsAt`. */
  full: boolean;
  /** The lease in flight; callers of the same key wait for it instead of asking again. */
  leasing?: Promise<void>;
}

/**
 * A rate limit that holds across every orchestrator: the count lives in a shared {@link RateLimitStore}
 * (fixed windows), and each process leases calls from it in small batches so that most calls need no round
 * trip. The store counts what was leased, so the processes together never admit more than the limit in a
 * window; calls leased but unused when the window ends are lost (at most `lease - 1` per process and key).
 * A full window is remembered locally until it ends, so a flood of refused calls costs no round trips.
 */
export class LeasedRateLimiter implements CallRateLimiter {
  private readonly allotments = new Map<string, Allotment>();
  private readonly now: () => number;
  private readonly leaseSize: (limit: RateLimit) => number;
  private takesSinceSweep = 0;

  constructor(
    private readonly store: RateLimitStore,
    options: LeasedRateLimiterOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.leaseSize = options.leaseSize ?? defaultLeaseSize;
  }

  take(tool: string, key: string, limit: RateLimit): void | Promise<void> {
    if ((this.takesSinceSweep += 1) >= 1000) this.sweep();
    const id = `${limit.calls}-${limit.perMs}\u0000${key}`;
    const allotment = this.allotments.get(id);
    if (allotment && this.now() < allotment.endsAt) {
      if (allotment.left > 0) {
        allotment.left -= 1;
        return;
      }
      if (allotment.full) throw this.refusal(tool, limit, allotment);
    }
    return this.takeLeased(tool, id, key, limit);
  }

  /** Number of keys currently tracked. */
  get trackedKeys(): number {
    return this.allotments.size;
  }

  private async takeLeased(tool: string, id: string, key: string, limit: RateLimit): Promise<void> {
    for (;;) {
      let allotment = this.allotments.get(id);
      if (allotment?.leasing) {
        await allotment.leasing;
        allotment = this.allotments.get(id);
      }
      if (allotment && !allotment.leasing && this.now() < allotment.endsAt) {
        if (allotment.left > 0) {
          allotment.left -= 1;
          return;
        }
        if (allotment.full) throw this.refusal(tool, limit, allotment);
      }
      if (allotment?.leasing) continue;
      const next: Allotment = { left: 0, endsAt: 0, full: false };
      const leasing = this.lease(next, storeKey(key), limit);
      next.leasing = leasing;
      this.allotments.set(id, next);
      try {
        await leasing;
      } finally {
        delete next.leasing;
      }
    }
  }

  /** Adds one lease to the shared count and keeps the share of it that fit under the limit. */
  private async lease(allotment: Allotment, key: string, limit: RateLimit): Promise<void> {
    const size = Math.max(1, Math.min(limit.calls, Math.floor(this.leaseSize(limit))));
    let count;
    try {
      count = await this.store.add(key, size, limit);
    } catch (error) {
      allotment.endsAt = 0;
      throw new RateLimitStoreUnavailableError(error);
    }
    // Everything counted before this lease is someone else's; of ours, what fits under the limit is ours.
    const before = count.counted - size;
    const granted = Math.max(0, Math.min(size, limit.calls - before));
    allotment.left = granted;
    allotment.full = granted < size;
    allotment.endsAt = this.now() + Math.max(1, count.msBeforeReset);
  }

  private refusal(tool: string, limit: RateLimit, allotment: Allotment): RateLimitedError {
    const retryAfterMs = Math.max(1, Math.ceil(allotment.endsAt - this.now()));
    return new RateLimitedError(tool, retryAfterMs, limit.calls, limit.perMs);
  }

  private sweep(): void {
    this.takesSinceSweep = 0;
    const now = this.now();
    for (const [id, allotment] of this.allotments) {
      if (!allotment.leasing && allotment.endsAt <= now) this.allotments.delete(id);
    }
  }
}

/**
 * The key as stored: readable for a tool, the session part hashed (any length and characters in, a short
 * printable key out; the store's key column is bounded and refuses NUL).
 */
function storeKey(key: string): string {
  const split = key.indexOf('\u0000');
  if (split < 0) return key;
  const session = createHash('sha256')
    .update(key.slice(split + 1))
    .digest('base64url');
  return `${key.slice(0, split)}:session:${session}`;
}
