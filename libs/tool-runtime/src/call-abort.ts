/**
 * The abort of one tool call. Its AbortSignal is made only when someone asks for it: most calls end without
 * anybody listening, and a signal with a listener costs about 5 µs (measured on Node 20), twice per call on
 * a worker before this. Code that only needs to be told uses {@link onAbort}, a plain callback.
 */
export class CallAbort {
  private controller?: AbortController;
  private listeners?: Array<(reason: unknown) => void>;
  private abortReason: unknown;
  private done = false;

  get aborted(): boolean {
    return this.done;
  }

  /** Why the call was aborted; undefined until it is. */
  get reason(): unknown {
    return this.abortReason;
  }

  /** An AbortSignal that follows this abort (already aborted when the call was). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.done) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /** Aborts once; later calls change nothing. Listeners run in the order they were added. */
  abort(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.abortReason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener(reason);
    this.controller?.abort(reason);
  }

  /** Runs `listener` once on abort (at once when already aborted); returns what removes it. */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.done) {
      listener(this.abortReason);
      return () => undefined;
    }
    (this.listeners ??= []).push(listener);
    return () => {
      const index = this.listeners?.indexOf(listener) ?? -1;
      if (index >= 0) this.listeners!.splice(index, 1);
    };
  }
}
