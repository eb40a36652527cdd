/**
 * A push-to-pull bridge: callbacks push items, one consumer pulls them with `for await`. The consumer
 * sees every item pushed before `end()` or `fail()`, then the end or the error.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((result: void) => void) | undefined;
  private finished = false;
  private failure: { error: unknown } | undefined;

  push(item: T): void {
    if (this.finished) return;
    this.items.push(item);
    this.wake();
  }

  end(): void {
    this.finished = true;
    this.wake();
  }

  fail(error: unknown): void {
    if (this.finished) return;
    this.failure = { error };
    this.finished = true;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.items.length > 0) {
        yield this.items.shift()!;
        continue;
      }
      if (this.finished) {
        if (this.failure) throw this.failure.error;
        return;
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}
