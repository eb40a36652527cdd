import { Worker } from 'node:worker_threads';

/** A line that matched. */
export interface LineMatch {
  line: number;
  text: string;
}

/** Outcome of matching one file: its matches, or `timeout` when the per-file cap was hit. */
export type LineMatchOutcome = { kind: 'matched'; matches: LineMatch[] } | { kind: 'timeout' };

// Plain JavaScript run with `eval: true`, so the worker needs no build step of its own.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', ({ id, text, limit }) => {
  const lines = text.split('\\n');
  const matches = [];
  for (let index = 0; index < lines.length && matches.length < limit; index += 1) {
    const line = lines[index].slice(0, workerData.maxLineChars).replace(/\\r$/, '');
    if (regex.test(line)) matches.push({ line: index + 1, text: line.slice(0, workerData.returnedChars) });
  }
  parentPort.postMessage({ id, matches });
});
`;

/**
 * Runs a regular expression over file contents in a worker thread. JavaScript cannot interrupt a
 * regex that backtracks for minutes; terminating the worker can. A worker that hit the time cap
 * is replaced by a fresh one for the next file.
 */
export class IsolatedLineMatcher {
  private worker: Worker | undefined;
  private nextId = 0;

  constructor(
    private readonly regex: RegExp,
    private readonly maxLineChars: number,
    private readonly returnedChars: number,
  ) {}

  /** Matches the lines of `text`, stopping after `limit` matches or when `timeoutMs` passes. */
  match(text: string, limit: number, timeoutMs: number): Promise<LineMatchOutcome> {
    const worker = this.currentWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      const onMessage = (message: { id: number; matches: LineMatch[] }) => {
        if (message.id !== id) return;
        cleanup();
        resolve({ kind: 'matched', matches: message.matches });
      };
      const onError = (error: Error) => {
        cleanup();
        this.discardWorker();
        reject(error);
      };
      const timer = setTimeout(() => {
        cleanup();
        this.discardWorker();
        resolve({ kind: 'timeout' });
      }, timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ id, text, limit });
    });
  }

  /** Stops the worker; call when the search is over. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private currentWorker(): Worker {
    this.worker ??= new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source: this.regex.source, flags: this.regex.flags, maxLineChars: this.maxLineChars, returnedChars: this.returnedChars },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    return this.worker;
  }

  private discardWorker(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }
}
