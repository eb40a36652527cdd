/**
 * Worker thread entry: imports a component's generated glue, instantiates it from the pre-compiled core
 * modules of the first message (`load`) and runs its exports.
 * Guest code is wasm and cannot reach this JavaScript; host imports that need the main thread block on a
 * shared flag until the main thread posts the answer, because jco host imports are synchronous.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import {
  GUEST_LOG_LEVELS,
  MEMORY_HIGH_WATER,
  type ComponentWorkerData,
  type FromWorkerMessage,
  type GuestLogLevel,
  type HostOperation,
  type SequencedHostAnswer,
  type ToWorkerMessage,
} from './worker-protocol.js';

interface ToolExports {
  execute(request: { params: string; context?: string }): { output?: string; error?: string };
  schema(): string;
  description(): string;
}

type Instantiate = (
  getCoreModule: (name: string) => WebAssembly.Module,
  imports: Record<string, Record<string, unknown>>,
  instantiateCore: (
    module: WebAssembly.Module,
    imports: WebAssembly.Imports,
  ) => Promise<WebAssembly.Instance>,
) => Promise<ToolExports>;

// jco's glue reads `process.env.JCO_DEBUG` tens of times per call; on Node's own env object each read
// crosses into C++ (0.2 µs), on a plain copy it is an ordinary property read (0.03 µs).
process.env = { ...process.env };

const MAX_LOG_CHARS = 4096;
const MAX_LOG_LINES_PER_CALL = 200;
const data = workerData as ComponentWorkerData;
const port = parentPort!;
const flag = new Int32Array(data.signal);
const memories: WebAssembly.Memory[] = [];
let presentSecrets = new Set<string>();
let hostSeq = 0;
let logLines = 0;
const minLogRank = GUEST_LOG_LEVELS.indexOf(data.logLevel);

/** Rank of a guest log level; an unknown one ranks as `info`, as the main thread shows it. */
function logRank(level: string): number {
  const rank = GUEST_LOG_LEVELS.indexOf(level as GuestLogLevel);
  return rank === -1 ? 1 : rank;
}

function post(message: FromWorkerMessage): void {
  port.postMessage(message);
}

/** Sends one host operation and blocks until the main thread answers; an error becomes the guest's `err`. */
function callHost(operation: HostOperation): unknown {
  const seq = ++hostSeq;
  Atomics.store(flag, 0, 0);
  data.hostPort.postMessage({ ...operation, seq });
  const deadline = Date.now() + data.hostCallTimeoutMs;
  for (;;) {
    const received = receiveMessageOnPort(data.hostPort);
    if (received) {
      const answer = received.message as SequencedHostAnswer;
      if (answer.seq !== seq) continue; // a late answer to an earlier, abandoned call
      if (!answer.ok) throw { payload: answer.error };
      return answer.value;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0 || Atomics.wait(flag, 0, 0, remaining) === 'timed-out')
      throw { payload: 'host call timed out' };
    Atomics.store(flag, 0, 0);
  }
}

const host = {
  log(level: string, message: string): void {
    if (logRank(level) < minLogRank) return;
    logLines++;
    if (logLines <= MAX_LOG_LINES_PER_CALL)
      post({ type: 'log', level, message: message.slice(0, MAX_LOG_CHARS) });
    else if (logLines === MAX_LOG_LINES_PER_CALL + 1)
      post({
        type: 'log',
        level: 'warn',
        message: `log limit of ${MAX_LOG_LINES_PER_CALL} lines per call reached; further lines dropped`,
      });
  },
  nowMillis(): bigint {
    return BigInt(Date.now());
  },
  secretExists(name: string): boolean {
    return presentSecrets.has(name);
  },
  httpRequest(request: { method: string; url: string; headers: [string, string][]; body?: string }): unknown {
    return callHost({
      op: 'http-request',
      request: {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: request.body ?? undefined,
      },
    });
  },
  workspaceRead(path: string): unknown {
    return callHost({ op: 'workspace-read', path });
  },
  toolInvoke(alias: string, paramsJson: string): unknown {
    return callHost({ op: 'tool-invoke', alias, paramsJson });
  },
};

/** Size of the largest linear memory: the cap applies to each memory on its own. */
function largestMemoryBytes(): number {
  let largest = 0;
  for (const memory of memories) largest = Math.max(largest, memory.buffer.byteLength);
  return largest;
}

/**
 * Whether a trap looks like running out of the memory cap. There is no hook on `memory.grow`, so this is a
 * heuristic: an out-of-memory message, or memory at the high-water mark or above when the trap hit.
 */
function outOfMemory(message: string): boolean {
  if (/out of memory|memory allocation/i.test(message)) return true;
  return largestMemoryBytes() >= data.memoryCapBytes * MEMORY_HIGH_WATER;
}

/** The core modules, from the main thread's first message (they may still be compiling while this starts). */
function receiveModules(): Promise<Record<string, WebAssembly.Module>> {
  return new Promise((resolve) => {
    port.once('message', (message: ToWorkerMessage) => {
      if (message.type === 'load') resolve(message.modules);
    });
  });
}

async function start(): Promise<void> {
  let tool: ToolExports;
  const modules = receiveModules();
  try {
    const { instantiate } = (await import(data.entryUrl)) as { instantiate: Instantiate };
    const loaded = await modules;
    tool = await instantiate(
      (name) => loaded[name]!,
      { 'talon:tool/host': host },
      async (module, imports) => {
        const instance = await WebAssembly.instantiate(module, imports);
        for (const value of Object.values(instance.exports))
          if (value instanceof WebAssembly.Memory) memories.push(value);
        return instance;
      },
    );
  } catch (error) {
    post({ type: 'init-failed', message: error instanceof Error ? error.message : String(error) });
    return;
  }
  port.on('message', (message: ToWorkerMessage) => {
    if (message.type === 'load') return; // only the first message carries modules
    if (message.type === 'describe') {
      try {
        const schema = tool.schema();
        const description = tool.description();
        post({ type: 'described', schema, description, memoryBytes: largestMemoryBytes() });
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        post({ type: 'trap', id: -1, message: text, outOfMemory: outOfMemory(text) });
      }
      return;
    }
    presentSecrets = new Set(message.presentSecrets);
    logLines = 0;
    try {
      const response = tool.execute({ params: message.params, context: message.context });
      post({
        type: 'result',
        id: message.id,
        output: response.output ?? undefined,
        error: response.error ?? undefined,
        memoryBytes: largestMemoryBytes(),
      });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      post({ type: 'trap', id: message.id, message: text, outOfMemory: outOfMemory(text) });
    }
  });
  post({ type: 'ready', memoryBytes: largestMemoryBytes() });
}

void start();
