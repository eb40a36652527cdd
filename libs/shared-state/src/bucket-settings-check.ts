import { SHARED_BUCKET_SETTINGS } from '@talon/contracts';

/** The settings of an existing bucket that decide whether Talon can keep its state in it. */
export interface ObservedBucketSettings {
  /** Revisions kept per key (KV only; `undefined` for an object store). */
  history?: number;
  storage: string;
  /** Expiry of entries in milliseconds; 0 for none. */
  ttlMs: number;
  /** Subjects of the stream behind the bucket. */
  subjects: readonly string[];
}

/**
 * What is wrong with an existing bucket, one readable line per setting; empty when it is usable. A TTL
 * would let installed state expire, memory storage would lose it on a NATS restart, other subjects mean
 * the stream is not the bucket Talon writes to. A larger history than Talon's is fine (it only keeps more).
 */
export function bucketSettingsDifferences(
  observed: ObservedBucketSettings,
  expectedSubject: string,
): string[] {
  const differences: string[] = [];
  if (observed.history !== undefined && observed.history < 1)
    differences.push(`history is ${observed.history}, needs at least 1`);
  if (observed.storage !== SHARED_BUCKET_SETTINGS.storage)
    differences.push(`storage is ${observed.storage}, needs ${SHARED_BUCKET_SETTINGS.storage}`);
  if (observed.ttlMs !== SHARED_BUCKET_SETTINGS.ttlMs)
    differences.push(`entries expire after ${observed.ttlMs} ms, needs no expiry (ttl 0)`);
  if (!observed.subjects.includes(expectedSubject))
    differences.push(
      `the stream's subjects are ${observed.subjects.join(', ') || 'none'}, needs ${expectedSubject}`,
    );
  return differences;
}
