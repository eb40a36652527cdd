import { Worker } from 'node:worker_threads';
import type { TranspileAnswer, TranspileReply, TranspileRequest } from './transpile-worker.js';
import { compiledWorkerScript } from './worker-script.js';

/** The smallest valid component (magic, component version, no sections): transpiled to warm jco up. */
const EMPTY_COMPONENT = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00]);

/**
 * One long-lived transpile worker thread, so only the first transpile pays for loading and compiling jco
 * (seconds) and a tool installed on another runner is ready here in a fraction of a second. The thread does
 * not keep the process alive while idle; if it dies, the requests in flight fail and the next starts a new one.
 */
export class TranspileWorkerHandle {
  private worker?: Worker;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (reply: TranspileReply) => void; reject: (error: Error) => void }
  >();

  transpile(bytes: Uint8Array): Promise<TranspileReply> {
    const worker = this.running();
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
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(compiledWorkerScript('transpile-worker'), { workerData: null });
    worker.unref();
    worker.on('message', (answer: TranspileAnswer) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      waiting?.resolve(answer.reply);
      if (this.pending.size === 0) worker.unref();
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`transpile worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }
}
