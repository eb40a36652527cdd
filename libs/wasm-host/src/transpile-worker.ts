/**
 * Worker thread entry: reads a component's imports and transpiles it with jco off the main thread
 * (a 12 MB componentize-js component takes seconds, which would stall every call in flight). It stays up
 * and answers one request after another: jco's first transpile in a thread costs seconds, later ones a
 * fraction of it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { componentWit, transpile } from '@bytecodealliance/jco';

/** Reply of the transpile worker. */
export type TranspileReply =
  | { ok: true; wit: string; files: Record<string, Uint8Array> }
  | { ok: false; stage: 'wit' | 'transpile'; message: string };

async function run(bytes: Uint8Array): Promise<TranspileReply> {
  let wit: string;
  try {
    wit = await componentWit(bytes);
  } catch (error) {
    return { ok: false, stage: 'wit', message: error instanceof Error ? error.message : String(error) };
  }
  try {
    const { files } = await transpile(bytes, {
      name: 'component',
      instantiation: 'async',
      noTypescript: true,
      quiet: true,
    });
    return { ok: true, wit, files };
  } catch (error) {
    return { ok: false, stage: 'transpile', message: error instanceof Error ? error.message : String(error) };
  }
}

/** One request to the worker. */
export interface TranspileRequest {
  id: number;
  bytes: Uint8Array;
}

/** The worker's answer to the request of that id. */
export interface TranspileAnswer {
  id: number;
  reply: TranspileReply;
}

if (workerData !== null && workerData !== undefined)
  void run(workerData as Uint8Array).then((reply) => parentPort!.postMessage(reply));
else
  parentPort!.on('message', (request: TranspileRequest) => {
    void run(request.bytes).then((reply) =>
      parentPort!.postMessage({ id: request.id, reply } satisfies TranspileAnswer),
    );
  });
