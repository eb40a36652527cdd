/** One change a replica saw in a record bucket (its own writes included). */
export type RecordChange<T> =
  | { kind: 'put'; key: string; value: T; revision: number }
  | { kind: 'delete'; key: string; revision: number };

/**
 * Records every replica shares, keyed by name. The view is kept up to date by a watch, so reads are local
 * and every replica converges on the same entries; writes go to the shared store first.
 */
export interface RecordBucket<T> {
  /** The records as last seen, by key. */
  entries(): ReadonlyMap<string, T>;
  get(key: string): T | undefined;
  /** Writes a record only if the key holds none; resolves `false` when another writer was first. */
  create(key: string, value: T): Promise<boolean>;
  /** Writes a record, replacing any. */
  put(key: string, value: T): Promise<void>;
  /** Deletes a record (a no-op when there is none). */
  delete(key: string): Promise<void>;
  /** Tells `listener` about every change after the initial view; returns the way to stop listening. */
  onChange(listener: (change: RecordChange<T>) => void): () => void;
  /** Stops the watch. */
  close(): Promise<void>;
}
