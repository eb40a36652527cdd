/**
 * Coalesces many small writes into few: items added while a batch is being written wait and go out
 * together in the next one, so under load each item costs a share of one round trip instead of its
 * own, and alone it waits for nothing (the first item is written on the next turn of the event loop).
 * One batch is written at a time, in the order items were added. `write` returns one result per item,
 * in order; when it throws, every item of that batch is rejected with the error.
 */
export class WriteBatcher<I, O> {
  private queue: Array<{ item: I; resolve: (value: O) => void; reject: (error: unknown) => void }> = [];
  private draining = false;

  constructor(
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly maxBatch = 500,
  ) {}

  /** Queues an item; settles with its result once its batch is written. */
  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        // setImmediate, not a microtask: the callers of this same turn join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.write(batch.map((entry) => entry.item));
        if (results.length !== batch.length)
          throw new Error(`a batch of ${batch.length} writes returned ${results.length} results`);
        batch.forEach((entry, index) => entry.resolve(results[index]!));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.draining = false;
  }
}
