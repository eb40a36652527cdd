import type { AuditOutboxRecord } from '@talon/contracts';

/**
 * Writes one record into the chain; resolves once it is committed (never rejects: writes are retried).
 * `body`, when the outbox made it, is the record's canonical JSON (`canonicalAuditBody`), so the chain
 * does not write it again to hash the record. `keepId` asks an outbox that keeps order (`committedInOrder`)
 * to have this record's row keep its id whatever its place in its batch.
 */
export type AuditCommit = (record: AuditOutboxRecord, body?: string, keepId?: boolean) => Promise<void>;

/** Which of these record ids the chain holds already. */
export type StoredRecordIds = (recordIds: readonly string[]) => Promise<ReadonlySet<string>>;

/**
 * A durable queue in front of the audit chain: `publish` resolves once the record survives a crash of
 * this process, and the drain started by `start` commits every queued record (of any orchestrator) into
 * the chain, at least once: the chain stores a record id once, and an outbox that keeps order leaves out
 * at start what the chain holds already.
 */
export interface AuditOutbox {
  /** Resolves once the record is durable in the outbox; rejects when the outbox cannot take it. */
  publish(record: AuditOutboxRecord): Promise<void>;
  /**
   * Whether the outbox hands its records to the chain in the order it holds them, and finds those a crash
   * left behind already stored by that order: the stored ones are then the records up to the last one
   * whose id the chain holds. The chain then keeps the id of only the last of its records in each batch
   * (a batch is stored whole or not at all), not of every row. An outbox that may hand a record over twice
   * out of order (JetStream redelivery) says false, and every row keeps its id.
   */
  readonly committedInOrder: boolean;
  /** Starts draining the outbox into `commit`; `stored` finds which records the chain holds already. */
  start(commit: AuditCommit, stored: StoredRecordIds): Promise<void>;
  /** Resolves once every record published (by anyone) before the call is committed, or after `maxWaitMs`. */
  drained(maxWaitMs: number): Promise<boolean>;
  /** Stops taking records; those already taken are committed and acknowledged first. */
  stop(): Promise<void>;
}
