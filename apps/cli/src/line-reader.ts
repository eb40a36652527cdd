import type { Interface } from 'node:readline';

/**
 * Lines from a readline interface, one at a time, keeping what a person types ahead: a line entered
 * while a turn still runs (no prompt shown) waits here for the next {@link next} instead of being lost,
 * which is what `readline`'s `question` does with it.
 */
export class LineReader {
  private readonly queued: string[] = [];
  private waiting?: (line: string | undefined) => void;
  private closed = false;

  constructor(private readonly rl: Interface) {
    rl.on('line', (line: string) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      if (waiting) waiting(line);
      else this.queued.push(line);
    });
    rl.on('close', () => {
      this.closed = true;
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.(undefined);
    });
  }

  /**
   * Shows `prompt` and resolves with the next line; `undefined` once input has ended. When `signal`
   * aborts first, the prompt is given up (what was half typed is dropped) and the promise rejects with
   * the signal's reason; the next line typed then waits for the next call.
   */
  next(prompt: string, signal?: AbortSignal): Promise<string | undefined> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const line = this.queued.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.closed) return Promise.resolve(undefined);
    this.rl.setPrompt(prompt);
    this.rl.prompt();
    return new Promise((resolve, reject) => {
      const abandon = (): void => {
        if (this.waiting !== settle) return;
        this.waiting = undefined;
        // Ctrl-U: readline keeps the half-typed text for the next prompt otherwise.
        if (this.rl.terminal) this.rl.write(null, { ctrl: true, name: 'u' });
        reject(signal!.reason);
      };
      const settle = (value: string | undefined): void => {
        signal?.removeEventListener('abort', abandon);
        resolve(value);
      };
      this.waiting = settle;
      signal?.addEventListener('abort', abandon, { once: true });
    });
  }
}
