import type { RecordBucket, RecordChange } from '@talon/shared-state';

/**
 * A record bucket held in memory, telling its listeners about every write: the logic above a bucket is
 * unit-tested with it, the JetStream one in the integration tests.
 */
export class MemoryRecordBucket<T> implements RecordBucket<T> {
  readonly view = new Map<string, T>();
  private readonly listeners = new Set<(change: RecordChange<T>) => void>();
  private revision = 0;

  entries(): ReadonlyMap<string, T> {
    return this.view;
  }
  get(key: string): T | undefined {
    return this.view.get(key);
  }
  async create(key: string, value: T): Promise<boolean> {
    if (this.view.has(key)) return false;
    await this.put(key, value);
    return true;
  }
  async put(key: string, value: T): Promise<void> {
    this.view.set(key, value);
    this.tell({ kind: 'put', key, value, revision: ++this.revision });
  }
  async delete(key: string): Promise<void> {
    if (!this.view.delete(key)) return;
    this.tell({ kind: 'delete', key, revision: ++this.revision });
  }
  onChange(listener: (change: RecordChange<T>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  async close(): Promise<void> {
    this.listeners.clear();
  }

  private tell(change: RecordChange<T>): void {
    for (const listener of this.listeners) listener(change);
  }
}
