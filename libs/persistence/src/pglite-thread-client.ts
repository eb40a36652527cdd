import { WriteEpoch } from './write-epoch.js';
import { Worker } from 'node:worker_threads';
import type {
  PgliteThreadData,
  PgliteThreadReply,
  PgliteThreadRequest,
  PgliteThreadStart,
} from './pglite-thread-messages.js';
import { rebuildError } from './transported-error.js';
import { useBaselineWasmTier } from './wasm-baseline-tier.js';

/** A request without its id (the client numbers them). */
type Request = PgliteThreadRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id'>
    : never
  : never;

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * PGlite in a thread of its own. PGlite is PostgreSQL compiled to WebAssembly: every statement runs on the
 * thread that called it, and a batch of audit rows held the orchestrator's event loop for 1–4 ms at a time
 * while a third of its CPU at concurrency 64 went to PGlite (profiled). Here the main thread only posts
 * requests and reads replies; the host thread (`pglite-host-thread.ts`) runs them. A request's data and
 * its reply cross by structured cloning, errors as `TransportedError`.
 */
export class PgliteThreadClient {
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private gone: Error | undefined;
  /** Moves with every request that may write (see {@link WriteEpoch}). */
  readonly writeEpoch = new WriteEpoch();

  private constructor(private readonly worker: Worker) {
    // Like PGlite in the main thread, an idle database does not keep the process alive; one that is
    // answering a request does.
    worker.unref();
    worker.on('message', (reply: PgliteThreadReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(rebuildError(reply.error));
    });
    const fail = (error: Error): void => {
      this.gone ??= error;
      for (const waiting of this.waiting.values()) waiting.reject(this.gone);
      this.waiting.clear();
    };
    worker.on('error', (error) =>
      fail(new Error(`The PGlite thread crashed: ${error.message}`, { cause: error })),
    );
    worker.on('exit', (code) => fail(new Error(`The PGlite thread exited (code ${code}).`)));
  }

  /** Starts the thread and opens PGlite in it; rejects with PGlite's own error when it cannot. */
  static async start(data: PgliteThreadData): Promise<PgliteThreadClient> {
    // Set here, before the thread exists: set from inside the thread, an idle orchestrator measured about
    // 20 MiB more after its first start (the migrations run there).
    useBaselineWasmTier();
    const worker = new Worker(new URL(hostScript(), import.meta.url), { workerData: data });
    const started = await new Promise<PgliteThreadStart>((resolve, reject) => {
      const exited = (code: number): void =>
        reject(new Error(`The PGlite thread exited (code ${code}) while starting.`));
      worker.once('message', (message: PgliteThreadStart) => {
        worker.off('error', reject);
        worker.off('exit', exited);
        resolve(message);
      });
      worker.once('error', reject);
      worker.once('exit', exited);
    });
    if (!started.started) {
      await worker.terminate();
      throw rebuildError(started.error);
    }
    return new PgliteThreadClient(worker);
  }

  /** Sends one request; resolves with the host thread's answer or rejects with its error. */
  call<T>(request: Request): Promise<T> {
    if (this.gone) return Promise.reject(this.gone);
    // Every request may write but a SELECT (see WriteEpoch): Prisma, migrations and the hot-path
    // statements all come through here. An insert or COPY into one named table writes that table alone.
    if (request.op === 'preparedQuery') this.writeEpoch.advanceFor(request.sql);
    else if (request.op === 'queryRaw') this.writeEpoch.advanceFor(request.query.sql);
    else if (request.op === 'copyRows') this.writeEpoch.advanceTable(request.table);
    else if (request.op === 'executeText' && request.table !== undefined)
      this.writeEpoch.advanceTable(request.table);
    else this.writeEpoch.advance();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  /** Closes PGlite (its data is written out), then stops the thread. */
  async close(): Promise<void> {
    try {
      if (!this.gone) await this.call({ op: 'close' });
    } finally {
      this.gone ??= new Error('The PGlite database is closed.');
      await this.worker.terminate();
    }
  }
}

/** The compiled host script: beside this module in `dist/`, or in `dist/` when running from sources (tests). */
function hostScript(): string {
  return import.meta.url.endsWith('.ts') ? '../dist/pglite-host-thread.js' : './pglite-host-thread.js';
}
