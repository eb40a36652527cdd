/**
 * Worker thread entry: reads a component's imports and transpiles it with jco off the main thread
 * (a 12 MB componentize-js component takes seconds, which would stall every call in flight).
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

void run(workerData as Uint8Array).then((reply) => parentPort!.postMessage(reply));
