import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { listenForCallAbort, ToolTimeoutError } from '@talon/tool-runtime';
import { ComponentLoadError } from './errors/component-load-error.js';
import { MemoryLimitError } from './errors/memory-limit-error.js';
import { ToolTrapError } from './errors/tool-trap-error.js';
import type { HostCallContext, HostImports } from './host-imports.js';
import {
  GUEST_LOG_LEVELS,
  MEMORY_HIGH_WATER,
  type ComponentWorkerData,
  type GuestLogLevel,
  type FromWorkerMessage,
  type SequencedHostAnswer,
  type SequencedHostOperation,
  type ToWorkerMessage,
} from './worker-protocol.js';

/**
 * Generated entry and core modules of one component. The modules may still be compiling: a worker starts
 * and imports the entry meanwhile, and receives them when they are ready.
 */
export interface LoadedComponent {
  entryUrl: string;
  modules: Promise<Record<string, WebAssembly.Module>>;
}

/** How to start one worker. */
export interface WorkerHandleOptions {
  /** For error messages. */
  toolName: string;
  script: URL;
  component: LoadedComponent;
  hostImports: HostImports;
  memoryCapBytes: number;
  hostCallTimeoutMs: number;
  logLevel: GuestLogLevel;
}

type Settled = Extract<FromWorkerMessage, { type: 'result' | 'described' }>;

interface PendingRequest {
  resolve(message: Settled): void;
  reject(error: Error): void;
  host?: HostCallContext;
}

const LOG_LEVELS = new Set<string>(GUEST_LOG_LEVELS);

/**
 * A component's thread gets none of the runner's environment (its NATS credentials and secrets stay out of
 * reach of the generated glue); only jco's own debug switch passes through.
 */
function componentWorkerEnv(): Record<string, string> {
  const debug = process.env['JCO_DEBUG'];
  return debug ? { JCO_DEBUG: debug } : {};
}

/**
 * One worker thread running one component instance, one request at a time. A timeout, an abort, a trap or
 * a crash terminates it for good (`dead`); the pool then starts a fresh one.
 */
export class ComponentWorkerHandle {
  readonly ready: Promise<void>;
  dead = false;
  /** Size of the instance's largest linear memory when it became ready, and after its last call. */
  private startMemoryBytes = 0;
  private memoryBytes = 0;
  private readonly worker: Worker;
  private readonly hostPort: MessagePort;
  private readonly flag: Int32Array;
  private pending?: PendingRequest;
  private nextId = 1;

  constructor(private readonly options: WorkerHandleOptions) {
    const channel = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    this.flag = new Int32Array(signal);
    this.hostPort = channel.port1;
    const workerData: ComponentWorkerData = {
      entryUrl: options.component.entryUrl,
      hostPort: channel.port2,
      signal,
      hostCallTimeoutMs: options.hostCallTimeoutMs,
      memoryCapBytes: options.memoryCapBytes,
      logLevel: options.logLevel,
    };
    // The JS heap holds only the generated glue and strings lifted out of the guest's (capped) memory.
    const resourceLimits = { maxOldGenerationSizeMb: 128 + Math.ceil(options.memoryCapBytes / 1_048_576) };
    this.worker = new Worker(options.script, {
      workerData,
      transferList: [channel.port2],
      resourceLimits,
      env: componentWorkerEnv(),
    });
    this.ready = new Promise<void>((resolve, reject) => {
      this.pending = { resolve: () => resolve(), reject };
    });
    this.ready.catch(() => undefined);
    this.worker.on('message', (message: FromWorkerMessage) => this.onMessage(message));
    this.worker.on('error', (error) =>
      this.fail(new ToolTrapError(`The component worker crashed: ${error.message}`, { cause: error })),
    );
    this.worker.on('exit', (code) =>
      this.fail(new ToolTrapError(`The component worker exited (code ${code}).`)),
    );
    channel.port1.on('message', (operation: SequencedHostOperation) => void this.onHostOperation(operation));
    // The worker boots while the modules compile (each takes tens of milliseconds on a cold start); a compile
    // error fails the worker with that error.
    options.component.modules.then(
      (modules) => {
        if (!this.dead) this.worker.postMessage({ type: 'load', modules } satisfies ToWorkerMessage);
      },
      (error: unknown) => this.fail(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** Runs one `execute` (or `describe`) with a deadline; rejects with a typed error and kills the worker on failure. */
  run(
    message: { type: 'describe' } | Omit<Extract<ToWorkerMessage, { type: 'execute' }>, 'id'>,
    timeoutMs: number,
    host?: HostCallContext,
  ): Promise<Settled> {
    if (this.dead)
      return Promise.reject(
        new ToolTrapError('The component worker is gone; retry the call.', { retryable: true }),
      );
    const outgoing: ToWorkerMessage =
      message.type === 'describe' ? message : { ...message, id: this.nextId++ };
    return new Promise<Settled>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(new ToolTimeoutError(this.options.toolName, timeoutMs, 'timeout'));
      }, timeoutMs);
      const onAbort = (): void =>
        this.fail(new ToolTimeoutError(this.options.toolName, timeoutMs, 'cancelled'));
      let stopListening = (): void => undefined;
      const done = (): void => {
        clearTimeout(timer);
        stopListening();
      };
      this.pending = {
        resolve: (settled) => {
          done();
          resolve(settled);
        },
        reject: (error) => {
          done();
          reject(error);
        },
        host,
      };
      // A call aborted already fails here at once, and its message is never sent.
      stopListening = host ? listenForCallAbort(host, onAbort) : stopListening;
      if (!this.dead) this.worker.postMessage(outgoing);
    });
  }

  /**
   * Whether its calls used up most of the room the instance had: its memory grew by at least MEMORY_HIGH_WATER
   * of the space between its size at start and the cap. Then it should take no more calls. Measured from the
   * start, so a tool that starts close to its cap is replaced before it traps, not after every call.
   */
  nearMemoryCap(): boolean {
    const grown = this.memoryBytes - this.startMemoryBytes;
    const room = this.options.memoryCapBytes - this.startMemoryBytes;
    return grown > 0 && grown >= room * MEMORY_HIGH_WATER;
  }

  /** Stops the worker now. */
  async terminate(): Promise<void> {
    this.dead = true;
    this.hostPort.close();
    await this.worker.terminate();
  }

  private onMessage(message: FromWorkerMessage): void {
    const pending = this.pending;
    switch (message.type) {
      case 'log':
        pending?.host?.log(
          LOG_LEVELS.has(message.level) ? (message.level as 'info') : 'info',
          message.message,
          { source: 'component' },
        );
        return;
      case 'ready':
        this.pending = undefined;
        this.startMemoryBytes = this.memoryBytes = message.memoryBytes;
        pending?.resolve(undefined as never);
        return;
      case 'init-failed':
        this.fail(new ComponentLoadError(`The component could not be instantiated: ${message.message}`));
        return;
      case 'trap': {
        const error = message.outOfMemory
          ? new MemoryLimitError(
              `The tool ran out of its ${Math.round(this.options.memoryCapBytes / 1_048_576)} MB memory cap and was stopped (${message.message}).`,
            )
          : new ToolTrapError(`The tool trapped: ${message.message}. Its worker was recycled.`);
        this.fail(error);
        return;
      }
      default:
        this.pending = undefined;
        this.memoryBytes = message.memoryBytes;
        pending?.resolve(message);
    }
  }

  private async onHostOperation(operation: SequencedHostOperation): Promise<void> {
    const host = this.pending?.host;
    const answer = host
      ? await this.options.hostImports.handle(operation, host)
      : { ok: false as const, error: 'denied: no call in progress' };
    if (this.dead) return;
    const sequenced: SequencedHostAnswer = { ...answer, seq: operation.seq };
    this.hostPort.postMessage(sequenced);
    Atomics.store(this.flag, 0, 1);
    Atomics.notify(this.flag, 0);
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    if (!this.dead) {
      this.dead = true;
      this.hostPort.close();
      void this.worker.terminate();
    }
    pending?.reject(error);
  }
}
