/**
 * A provider failure reduced to what the retry loop and the error classes need. Providers translate
 * their SDK's errors into this shape (see `sdk-failure.ts`).
 */
export type LlmFailure =
  | { readonly kind: 'credentials'; readonly status: number }
  | { readonly kind: 'rate_limited'; readonly retryAfterMs?: number }
  | {
      readonly kind: 'server';
      readonly status?: number;
      readonly retryAfterMs?: number;
      readonly reason: string;
    }
  | { readonly kind: 'connection'; readonly reason: string }
  | { readonly kind: 'rejected'; readonly status: number; readonly reason: string }
  | { readonly kind: 'aborted' };

/** Whether another attempt can help. */
export function isRetryableFailure(failure: LlmFailure): boolean {
  return failure.kind === 'rate_limited' || failure.kind === 'server' || failure.kind === 'connection';
}

/** Reads `retry-after-ms` or `retry-after` (seconds or an HTTP date) into milliseconds. */
export function parseRetryAfterMs(
  headers: Headers | undefined,
  now: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
