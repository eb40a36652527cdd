import type { Database } from '@talon/persistence';
import {
  FlexibleRateLimitStore,
  LeasedRateLimiter,
  SlidingWindowRateLimiter,
  type CallRateLimiter,
} from '@talon/tool-runtime';
import { RateLimiterPostgres } from 'rate-limiter-flexible';

/** The table the shared counts live in (created by migration 0007, in rate-limiter-flexible's layout). */
export const RATE_LIMIT_TABLE = 'rate_limit_counter';

/**
 * The tool-call limiter of this orchestrator. On PostgreSQL the count is shared by every orchestrator
 * (rate-limiter-flexible's PostgreSQL store, leased in small batches), so N of them never admit N times a
 * limit. PGlite admits one orchestrator per data directory (its lock), so a local exact window is enough.
 */
export function createToolRateLimiter(database: Database): CallRateLimiter {
  const pool = database.pgPool;
  if (!pool) return new SlidingWindowRateLimiter();
  return new LeasedRateLimiter(
    new FlexibleRateLimitStore(
      (options) =>
        new RateLimiterPostgres({
          ...options,
          storeClient: pool,
          tableName: RATE_LIMIT_TABLE,
          tableCreated: true,
          // Rows of windows that ended over an hour ago are deleted every 5 minutes (the library's timer).
          clearExpiredByTimeout: true,
        }),
    ),
  );
}
