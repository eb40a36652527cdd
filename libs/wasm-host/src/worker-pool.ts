import { talonMetrics } from '@talon/telemetry';
import { ComponentWorkerHandle, type LoadedComponent } from './component-worker-handle.js';
import { OutputTooLargeError } from './errors/output-too-large-error.js';
import { PoolClosedError } from './errors/pool-closed-error.js';
import type { HostCallContext, HostImports } from './host-imports.js';
import type { GuestLogLevel } from './worker-protocol.js';
import { compiledWorkerScript } from './worker-script.js';

/** Options of a pool: one per installed tool version. */
export interface ComponentWorkerPoolOptions {
  /** For error messages. */
  toolName: string;
  component: LoadedComponent;
  hostImports: HostImports;
  timeoutMs: number;
  maxConcurrency: number;
  memoryMb: number;
  maxOutputBytes: number;
  /** Longest wait for one host import answer inside the worker. Defaults to the call timeout. */
  hostCallTimeoutMs?: number;
  /** Start a replacement in the background when a worker is recycled, so the next call finds one warm. Default true. */
  replaceRecycled?: boolean;
  /** Guest log lines below this level are dropped in the worker, before they cost a message. Default `debug` (all). */
  logLevel?: GuestLogLevel;
  /** JSON passed as `request.context` on every call (host-side tool configuration). */
  context?: string;
  /** Worker entry file; defaults to the compiled `component-worker.js` next to this module (or in `dist/`). */
  workerScript?: URL;
}

/** One call through the pool. */
export interface PoolCall {
  params: string;
  context?: string;
  host: HostCallContext;
  /** Overrides the pool's timeout (never above it). */
  timeoutMs?: number;
}

/** What a component returned. */
export interface PoolResult {
  output?: string;
  error?: string;
}

/** Counters for tests, health and benchmarks. */
export interface PoolStats {
  workers: number;
  idle: number;
  inFlight: number;
  queued: number;
  started: number;
  /** Workers stopped after a timeout, trap or crash. */
  recycled: number;
  /** Healthy workers stopped because their calls used most of the memory room they started with. */
  retired: number;
}

/** The compiled component worker entry. */
export function defaultWorkerScript(): URL {
  return compiledWorkerScript('component-worker');
}

/** Pools not yet closed, for the `talon_wasm_instances` gauge. */
const livePools = new Set<ComponentWorkerPool>();

/** Component workers alive now across every pool of this process. */
export function liveComponentWorkers(): number {
  let count = 0;
  for (const pool of livePools) count += pool.stats().workers;
  return count;
}

/**
 * Runs one component in worker threads: at most `maxConcurrency` at once (the rest queue), every call with a
 * deadline. A worker that times out, traps or crashes is terminated, and so is one whose calls used most of its
 * memory room (a leaking guest); a replacement starts in the background.
 */
export class ComponentWorkerPool {
  private readonly workers = new Set<ComponentWorkerHandle>();
  private readonly idle: ComponentWorkerHandle[] = [];
  private readonly waiters: (() => void)[] = [];
  private readonly script: URL;
  private closed = false;
  private inFlight = 0;
  private started = 0;
  private recycled = 0;
  private retired = 0;
  private drained?: () => void;

  constructor(private readonly options: ComponentWorkerPoolOptions) {
    this.script = options.workerScript ?? defaultWorkerScript();
    livePools.add(this);
    talonMetrics().wasmInstances.observe(liveComponentWorkers);
  }

  /** Runs `execute` once. Rejects with ToolTimeoutError (tool-runtime), ToolTrapError, MemoryLimitError or OutputTooLargeError. */
  async execute(call: PoolCall): Promise<PoolResult> {
    const timeoutMs = Math.min(call.timeoutMs ?? this.options.timeoutMs, this.options.timeoutMs);
    return this.withWorker(async (worker) => {
      const presentSecrets = await this.options.hostImports.presentSecrets(call.host);
      const settled = await worker.run(
        {
          type: 'execute',
          params: call.params,
          context: call.context ?? this.options.context,
          presentSecrets,
        },
        timeoutMs,
        call.host,
      );
      if (settled.type !== 'result') throw new Error('unexpected worker answer');
      const size = Buffer.byteLength(settled.output ?? '') + Buffer.byteLength(settled.error ?? '');
      if (size > this.options.maxOutputBytes) {
        throw new OutputTooLargeError(
          `The tool returned ${size} bytes, above its cap of ${this.options.maxOutputBytes}; ask for less.`,
        );
      }
      return { output: settled.output, error: settled.error };
    });
  }

  /** Calls the component's `schema()` and `description()`. */
  async describe(): Promise<{ schema: string; description: string }> {
    return this.withWorker(async (worker) => {
      const settled = await worker.run({ type: 'describe' }, this.options.timeoutMs);
      if (settled.type !== 'described') throw new Error('unexpected worker answer');
      return { schema: settled.schema, description: settled.description };
    });
  }

  /** Starts one worker ahead of the first call so that call skips the cold start. */
  async warm(): Promise<void> {
    await this.withWorker(async () => undefined);
  }

  /** Live counters. */
  stats(): PoolStats {
    return {
      workers: this.workers.size,
      idle: this.idle.length,
      inFlight: this.inFlight,
      queued: this.waiters.length,
      started: this.started,
      recycled: this.recycled,
      retired: this.retired,
    };
  }

  /** Whether `close` was called. */
  isClosed(): boolean {
    return this.closed;
  }

  /** Refuses new calls, lets in-flight ones finish, then stops every worker. */
  async close(): Promise<void> {
    this.closed = true;
    livePools.delete(this);
    for (const wake of this.waiters.splice(0)) wake();
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    await Promise.all([...this.workers].map((worker) => worker.terminate()));
    this.workers.clear();
    this.idle.length = 0;
  }

  private async withWorker<T>(work: (worker: ComponentWorkerHandle) => Promise<T>): Promise<T> {
    if (this.closed)
      throw new PoolClosedError('This tool version was removed or replaced; call the tool again.', {
        retryable: true,
      });
    this.inFlight++;
    let worker: ComponentWorkerHandle | undefined;
    try {
      worker = await this.acquire();
      return await work(worker);
    } finally {
      if (worker) this.release(worker);
      this.inFlight--;
      if (this.inFlight === 0) this.drained?.();
    }
  }

  private async acquire(): Promise<ComponentWorkerHandle> {
    for (;;) {
      if (this.closed)
        throw new PoolClosedError('This tool version was removed or replaced; call the tool again.', {
          retryable: true,
        });
      const idle = this.idle.pop();
      if (idle) return idle;
      if (this.workers.size < this.options.maxConcurrency) {
        const worker = this.spawn();
        try {
          await worker.ready;
          return worker;
        } catch (error) {
          this.workers.delete(worker);
          this.wakeOne();
          throw error;
        }
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private spawn(): ComponentWorkerHandle {
    const worker = new ComponentWorkerHandle({
      toolName: this.options.toolName,
      script: this.script,
      component: this.options.component,
      hostImports: this.options.hostImports,
      memoryCapBytes: this.options.memoryMb * 1_048_576,
      hostCallTimeoutMs: this.options.hostCallTimeoutMs ?? this.options.timeoutMs,
      logLevel: this.options.logLevel ?? 'debug',
    });
    this.workers.add(worker);
    this.started++;
    return worker;
  }

  private release(worker: ComponentWorkerHandle): void {
    const died = worker.dead;
    const worn = !died && worker.nearMemoryCap();
    if (died || worn || this.closed) {
      this.workers.delete(worker);
      if (!died) void worker.terminate();
      if (died) {
        this.recycled++;
        talonMetrics().wasmWorkerStops.inc({ reason: 'recycled' });
      } else if (worn) {
        this.retired++;
        talonMetrics().wasmWorkerStops.inc({ reason: 'retired' });
      }
      if ((died || worn) && !this.closed && this.options.replaceRecycled !== false && this.idle.length === 0)
        this.replenish();
    } else {
      this.idle.push(worker);
    }
    this.wakeOne();
  }

  /** Starts a worker ahead of need and parks it as idle once it is ready. */
  private replenish(): void {
    const worker = this.spawn();
    worker.ready.then(
      () => {
        if (this.closed || worker.dead) {
          this.workers.delete(worker);
          void worker.terminate();
        } else {
          this.idle.push(worker);
        }
        this.wakeOne();
      },
      () => {
        this.workers.delete(worker);
        this.wakeOne();
      },
    );
  }

  private wakeOne(): void {
    this.waiters.shift()?.();
  }
}
