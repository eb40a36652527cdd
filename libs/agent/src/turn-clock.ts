/** Where a turn's time went, in milliseconds. `overheadMs` is everything outside model, tools and approvals. */
export interface TurnTimings {
  readonly totalMs: number;
  readonly modelMs: number;
  /** Time in tool batches, approval waits included. */
  readonly toolMs: number;
  readonly overheadMs: number;
}

/** Splits a turn's wall time into model, tools and the loop's own overhead. */
export class TurnClock {
  private readonly started = performance.now();
  private modelMs = 0;
  private toolMs = 0;

  async inModel<T>(work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.modelMs += performance.now() - start;
    }
  }

  async inTools<T>(work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.toolMs += performance.now() - start;
    }
  }

  finish(): TurnTimings {
    const totalMs = performance.now() - this.started;
    return {
      totalMs,
      modelMs: this.modelMs,
      toolMs: this.toolMs,
      overheadMs: Math.max(0, totalMs - this.modelMs - this.toolMs),
    };
  }
}
