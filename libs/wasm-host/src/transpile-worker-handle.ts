import { Worker } from 'node:worker_threads';
import type { TranspileAnswer, TranspileReply, TranspileRequest } from './transpile-worker.js';
import { compiledWorkerScript } from './worker-script.js';

/** The smallest valid component (magic, component version, no sections): transpiled to warm jco up. */
const EMPTY_COMPONENT = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00]);

/** How long an idle transpile thread is kept by default: jco holds 45–90 MB in it, and loads again in ~0.2 s. */
export const DEFAULT_TRANSPILER_IDLE_STOP_MS = 60_000;

/**
 * One transpile worker thread, kept while transpiles come and stopped once idle for `idleStopMs`: loading jco
 * takes about 0.2 s against a transpile's second or more, while the thread holds 45 MB once jco is loaded and
 * about 90 MB after a transpile. The thread does not keep the process alive while idle; if it dies, the
 * requests in flight fail and the next starts a new one.
 */
export class TranspileWorkerHandle {
  private worker?: Worker;
  private idleTimer?: NodeJS.Timeout;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (reply: TranspileReply) => void; reject: (error: Error) => void }
  >();

  constructor(private readonly idleStopMs = DEFAULT_TRANSPILER_IDLE_STOP_MS) {}

  /** Whether a transpile thread is running now (stopped when idle). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  transpile(bytes: Uint8Array): Promise<TranspileReply> {
    clearTimeout(this.idleTimer);
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<TranspileReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, bytes } satisfies TranspileRequest);
    });
  }

  /** Loads jco in the thread ahead of the first install (errors ignored: the real transpile reports them). */
  async warm(): Promise<void> {
    await this.transpile(EMPTY_COMPONENT).catch(() => undefined);
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    this.rejectPending(new Error('the transpile worker was closed'));
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(compiledWorkerScript('transpile-worker'), { workerData: null });
    worker.unref();
    worker.on('message', (answer: TranspileAnswer) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      waiting?.resolve(answer.reply);
      if (this.pending.size === 0) {
        worker.unref();
        this.stopWhenIdle(worker);
      }
    });
    const fail = (error: Error) => {
      // A thread stopped on purpose (idle, close) has no requests of its own left.
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.rejectPending(error);
    };
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`transpile worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  /** Stops `worker` after `idleStopMs` unless a transpile arrives first. */
  private stopWhenIdle(worker: Worker): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.worker !== worker || this.pending.size > 0) return;
      this.worker = undefined;
      void worker.terminate();
    }, this.idleStopMs);
    this.idleTimer.unref();
  }

  private rejectPending(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
