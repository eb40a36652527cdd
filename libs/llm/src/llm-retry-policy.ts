import { LlmConfigError } from './errors/llm-config-error.js';

/** How failed calls are retried (429, 5xx, connection errors). */
export interface LlmRetryOptions {
  /** Total attempts including the first. Default 4. */
  maxAttempts?: number;
  /** Backoff before the first retry; doubles each time. Default 500 ms. */
  initialDelayMs?: number;
  /** Cap of the exponential backoff. Default 8000 ms. */
  maxDelayMs?: number;
  /** A `retry-after` longer than this is not waited for: the call fails at once. Default 60000 ms. */
  maxRetryAfterMs?: number;
}

/** The retry policy with every default filled in. */
export type LlmRetryPolicy = Readonly<Required<LlmRetryOptions>>;

/** Defaults of {@link LlmRetryOptions}. */
export const DEFAULT_LLM_RETRY_POLICY: LlmRetryPolicy = {
  maxAttempts: 4,
  initialDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

/** Validates retry options once and fills in the defaults. */
export function parseLlmRetryOptions(options: LlmRetryOptions = {}): LlmRetryPolicy {
  const policy = { ...DEFAULT_LLM_RETRY_POLICY, ...stripUndefined(options) };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new LlmConfigError(`retry.maxAttempts must be an integer ≥ 1, got ${policy.maxAttempts}`);
  }
  for (const key of ['initialDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    if (!Number.isFinite(policy[key]) || policy[key] < 0) {
      throw new LlmConfigError(`retry.${key} must be a number ≥ 0, got ${policy[key]}`);
    }
  }
  return policy;
}

/**
 * The wait before retry number `retry` (1-based): the server's `retry-after` when given, otherwise
 * exponential backoff with "equal jitter" (half fixed, half random) so that clients spread out.
 */
export function retryDelayMs(
  policy: LlmRetryPolicy,
  retry: number,
  retryAfterMs?: number,
  random = Math.random,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const backoff = Math.min(policy.initialDelayMs * 2 ** (retry - 1), policy.maxDelayMs);
  return backoff / 2 + (random() * backoff) / 2;
}

/** Waits `ms`, or rejects with `signal.reason` as soon as the signal aborts. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
