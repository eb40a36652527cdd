import type { AuditOutboxRecord } from '@talon/contracts';

/**
 * Writes one record into the chain; resolves once it is committed (never rejects: writes are retried).
 * `body`, when the outbox made it, is the record's canonical JSON (`canonicalAuditBody`), so the chain
 * does not write it again to hash the record.
 */
export type AuditCommit = (record: AuditOutboxRecord, body?: string) => Promise<void>;

/**
 * A durable queue in front of the audit chain: `publish` resolves once the record survives a crash of
 * this process, and the drain started by `start` commits every queued record (of any orchestrator) into
 * the chain, at least once: the chain stores a record id once.
 */
export interface AuditOutbox {
  /** Resolves once the record is durable in the outbox; rejects when the outbox cannot take it. */
  publish(record: AuditOutboxRecord): Promise<void>;
  /** Starts draining the outbox into `commit`. */
  start(commit: AuditCommit): Promise<void>;
  /** Resolves once every record published (by anyone) before the call is committed, or after `maxWaitMs`. */
  drained(maxWaitMs: number): Promise<boolean>;
  /** Stops taking records; those already taken are committed and acknowledged first. */
  stop(): Promise<void>;
}
