import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { WASM_BASELINE_ONLY_FLAG } from './wasm-baseline-tier.js';

const run = promisify(execFile);

/** A new cluster is written by initdb inside PGlite's WebAssembly; on this machine it takes 15 s. */
const CREATION_TIMEOUT_MS = 300_000;

// The child opens the directory once (which runs initdb) and closes it. CommonJS, so `-e` can load PGlite
// by its resolved path without a module resolution of its own.
const CREATE_AND_CLOSE = `
const { PGlite } = require(process.argv[1]);
PGlite.create(process.argv[2], { startParams: [...PGlite.defaultStartParams, ...JSON.parse(process.argv[3])] })
  .then((db) => db.close())
  .then(() => process.exit(0), (error) => { console.error(error && error.stack || String(error)); process.exit(1); });
`;

/**
 * Creates a new PGlite cluster in `dataDir` in a short-lived child process, with `startParams` after
 * PGlite's default start parameters. initdb grows the WebAssembly
 * memory of the process that runs it to about 780 MiB, and a WebAssembly memory never shrinks: created in
 * the service itself, that peak would stay resident for its whole life (measured 557 MiB idle afterwards,
 * against about 200 MiB for the same directory opened fresh).
 */
export async function createPgliteClusterInChildProcess(
  dataDir: string,
  startParams: readonly string[],
): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  try {
    // Baseline-compiled WebAssembly: initdb then takes half the time (3.3 s against 6.4 s measured).
    await run(
      process.execPath,
      [WASM_BASELINE_ONLY_FLAG, '-e', CREATE_AND_CLOSE, pglite, dataDir, JSON.stringify(startParams)],
      {
        timeout: CREATION_TIMEOUT_MS,
        maxBuffer: 4 * 1024 * 1024,
      },
    );
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(
      `Creating the embedded database in ${dataDir} failed${stderr ? `: ${stderr.split('\n').slice(-5).join(' ')}` : ''}.`,
      { cause: error },
    );
  }
}
