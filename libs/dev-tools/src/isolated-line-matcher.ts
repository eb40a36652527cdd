import { Worker } from 'node:worker_threads';

/** A line that matched. */
export interface LineMatch {
  line: number;
  text: string;
}

/** Outcome of matching one text: its matches, or `timeout` when the per-text cap was hit. */
export type LineMatchOutcome = { kind: 'matched'; matches: LineMatch[] } | { kind: 'timeout' };

/**
 * Matches texts line by line, reporting each text's matches through `report`; stops after `limit`
 * matches in total. Self-contained on purpose: its source text is also the worker's code.
 */
function matchTexts(
  regex: RegExp,
  texts: readonly string[],
  limit: number,
  maxLineChars: number,
  returnedChars: number,
  report: (position: number, matches: LineMatch[], last: boolean) => void,
): void {
  let remaining = limit;
  for (let position = 0; position < texts.length && remaining > 0; position += 1) {
    const lines = texts[position]!.split('\n');
    const matches: LineMatch[] = [];
    for (let index = 0; index < lines.length && matches.length < remaining; index += 1) {
      const line = lines[index]!.slice(0, maxLineChars).replace(/\r$/, '');
      if (regex.test(line)) matches.push({ line: index + 1, text: line.slice(0, returnedChars) });
    }
    remaining -= matches.length;
    report(position, matches, remaining <= 0 || position === texts.length - 1);
  }
}

// Plain JavaScript run with `eval: true`, so the worker needs no build step of its own. It answers
// once per text, so the caller can time each text separately while sending them in batches.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const matchTexts = ${matchTexts.toString()};
const regex = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', ({ id, texts, limit }) => {
  matchTexts(regex, texts, limit, workerData.maxLineChars, workerData.returnedChars, (position, matches, last) =>
    parentPort.postMessage({ id, position, matches, last }));
});
`;

/**
 * Whether a pattern runs in linear time for sure: no quantifier, optional part or alternation
 * outside escapes (a fixed string after escaping is one). Such patterns skip the worker.
 */
export function isLinearPattern(source: string): boolean {
  return !/[*+?{|]/.test(source.replace(/\\./g, ''));
}

interface WorkerAnswer {
  id: number;
  position: number;
  matches: LineMatch[];
  last: boolean;
}

/**
 * Runs a regular expression over texts in a worker thread. JavaScript cannot interrupt a regex
 * that backtracks for minutes; terminating the worker can. Texts go in batches (one message round
 * trip per batch) and each text has its own time cap; after a timeout the worker is replaced and
 * the rest of the batch goes to the new one.
 */
export class IsolatedLineMatcher {
  private worker: Worker | undefined;
  private nextId = 0;

  constructor(
    private readonly regex: RegExp,
    private readonly maxLineChars: number,
    private readonly returnedChars: number,
  ) {}

  /**
   * Matches each text in order, stopping once `limit` matches were found in total. Returns one
   * outcome per text searched (fewer than `texts` when the limit was reached first).
   */
  async matchAll(
    texts: readonly string[],
    limit: number,
    perTextTimeoutMs: number,
  ): Promise<LineMatchOutcome[]> {
    const outcomes: LineMatchOutcome[] = [];
    if (isLinearPattern(this.regex.source)) {
      matchTexts(this.regex, texts, limit, this.maxLineChars, this.returnedChars, (_position, matches) =>
        outcomes.push({ kind: 'matched', matches }),
      );
      return outcomes;
    }
    let remaining = limit;
    while (outcomes.length < texts.length && remaining > 0) {
      const partial = await this.runBatch(texts.slice(outcomes.length), remaining, perTextTimeoutMs);
      if (partial.length === 0) break;
      for (const outcome of partial) {
        outcomes.push(outcome);
        if (outcome.kind === 'matched') remaining -= outcome.matches.length;
      }
    }
    return outcomes;
  }

  /** Starts the worker ahead of the first batch (while files are still being read), if one is needed. */
  warmUp(): void {
    if (!isLinearPattern(this.regex.source)) this.currentWorker();
  }

  /** Stops the worker; call when the search is over. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private runBatch(
    texts: readonly string[],
    limit: number,
    perTextTimeoutMs: number,
  ): Promise<LineMatchOutcome[]> {
    const worker = this.currentWorker();
    const id = this.nextId++;
    const outcomes: LineMatchOutcome[] = [];
    return new Promise((resolve, reject) => {
      let timer = setTimeout(() => onTimeout(), perTextTimeoutMs);
      const finish = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      const onTimeout = () => {
        finish();
        this.discardWorker();
        outcomes.push({ kind: 'timeout' });
        resolve(outcomes);
      };
      const onMessage = (answer: WorkerAnswer) => {
        if (answer.id !== id) return;
        outcomes.push({ kind: 'matched', matches: answer.matches });
        if (answer.last) {
          finish();
          resolve(outcomes);
          return;
        }
        clearTimeout(timer);
        timer = setTimeout(() => onTimeout(), perTextTimeoutMs);
      };
      const onError = (error: Error) => {
        finish();
        this.discardWorker();
        reject(error);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ id, texts, limit });
    });
  }

  private currentWorker(): Worker {
    this.worker ??= new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        source: this.regex.source,
        flags: this.regex.flags,
        maxLineChars: this.maxLineChars,
        returnedChars: this.returnedChars,
      },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    return this.worker;
  }

  private discardWorker(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }
}
