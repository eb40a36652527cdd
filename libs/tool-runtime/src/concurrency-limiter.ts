/**
 * Bounds how many calls run at once; the rest wait in arrival order. A waiter whose signal aborts
 * (its caller's deadline passed) leaves the queue without ever running.
 */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: Array<{ start: () => void; signal?: AbortSignal; onAbort?: () => void }> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  }

  /** Calls running now. */
  get running(): number {
    return this.active;
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: (typeof this.waiting)[number] = {
        signal,
        start: () => {
          if (waiter.onAbort) signal?.removeEventListener('abort', waiter.onAbort);
          this.active++;
          resolve();
        },
      };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.waiting.indexOf(waiter);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.start();
  }
}
