import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** What a sensitive value is replaced with in logs and audit records. */
export const REDACTED = '[REDACTED]';

function redactPath(value: unknown, segments: readonly string[], index: number): unknown {
  if (index === segments.length) return REDACTED;
  if (value === null || typeof value !== 'object') return value;
  const segment = segments[index]!;
  if (Array.isArray(value)) {
    if (segment !== '*' && !/^\d+$/.test(segment)) return value;
    let copy: unknown[] | undefined;
    value.forEach((item, position) => {
      if (segment !== '*' && Number(segment) !== position) return;
      const next = redactPath(item, segments, index + 1);
      if (next !== item) (copy ??= [...value])[position] = next;
    });
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  const keys =
    segment === '*'
      ? Object.keys(record)
      : Object.prototype.hasOwnProperty.call(record, segment)
        ? [segment]
        : [];
  for (const key of keys) {
    const next = redactPath(record[key], segments, index + 1);
    if (next !== record[key]) (copy ??= { ...record })[key] = next;
  }
  return copy ?? value;
}

/**
 * A copy of `params` in which every path of `sensitiveParams` holds {@link REDACTED}. Paths are dot-separated
 * (`auth.token`); `*` matches any key or array element (`headers.*`), a number an array index. Only the
 * objects along a redacted path are copied; the input is never modified.
 */
export function redactParams<T>(params: T, sensitiveParams: readonly string[]): T {
  let result: unknown = params;
  for (const path of sensitiveParams) {
    if (path.length === 0) continue;
    result = redactPath(result, path.split('.'), 0);
  }
  return result as T;
}

/**
 * Stable sha256 (hex) of the canonical JSON of `params` (keys sorted at every level), for audit records.
 * Pass `sensitiveParams` to hash the redacted form, so the hash cannot be used to guess a secret.
 */
export function hashParams(params: unknown, sensitiveParams: readonly string[] = []): string {
  const subject = sensitiveParams.length > 0 ? redactParams(params, sensitiveParams) : params;
  return hash('sha256', canonicalJson(subject), 'hex');
}
