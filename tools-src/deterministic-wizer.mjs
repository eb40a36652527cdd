// A deterministic stand-in for the `wizer` binary that componentize-js spawns to pre-initialise the JavaScript
// engine (run `componentize.wizer` once, then snapshot memory and globals into the module).
//
// Why: the native wizer gives the engine real WASI randomness and clocks, and the engine's start-up (hash seeds,
// GC timing) writes them into the snapshot, so two builds of the same source differ in thousands of bytes of
// the data section. Here the engine runs in V8 with:
//   - random_get from a fixed sha256 counter stream,
//   - clock_time_get from a fixed epoch plus a counter advanced by each call (time moves, deterministically),
//   - the preopened folders at fixed guest paths (componentize-js preopens a random /tmp folder, whose name
//     the engine keeps in the snapshot); the same host paths are replaced in the engine's arguments,
//   - only the environment variables componentize-js sets,
//   - every other import (the preview2 interfaces the engine uses at run time) trapping if called.
// The snapshot follows wizer's rules: defined globals get their initialised values, each defined memory's
// minimum becomes its initialised size, the non-zero regions become active data segments (replacing the
// original ones; passive segments are refused), the init function, `_initialize` and the start section are
// removed. The initialisation run has a memory ceiling (TALON_WIZER_MAX_MEMORY_MB, default 1024).
//
// Command line: the subset of wizer's flags componentize-js passes (--init-func, --dir, --mapdir, -o, input),
// the engine's arguments on stdin.
/* global WebAssembly */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WASI } from 'node:wasi';
import { analyse, instrument, snapshot } from './wasm-module-snapshot.mjs';

const PAGE = 65_536;
const FIXED_EPOCH_NS = BigInt(process.env.SOURCE_DATE_EPOCH ?? 0) * 1_000_000_000n;
const ENGINE_ENV = /^(DEBUG|SOURCE_NAME|FEATURE_[A-Z_]+|EXPORT_CNT|IMPORT_CNT|EXPORT\d+_[A-Z]+|IMPORT\d+_[A-Z]+)$/;

// ---- the initialisation run --------------------------------------------------------------------------------

function deterministicBytes() {
  let counter = 0;
  let pool = Buffer.alloc(0);
  return (length) => {
    while (pool.length < length) {
      pool = Buffer.concat([pool, createHash('sha256').update(`talon-deterministic-wizer:${counter++}`).digest()]);
    }
    const chunk = pool.subarray(0, length);
    pool = pool.subarray(length);
    return chunk;
  };
}

function parseArgs(argv) {
  const options = { initFunc: 'wizer.initialize', dirs: [], mapdirs: [], output: undefined, input: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--init-func' || arg === '-f') options.initFunc = argv[++i];
    else if (arg.startsWith('--init-func=')) options.initFunc = arg.slice('--init-func='.length);
    else if (arg.startsWith('--dir=')) options.dirs.push(arg.slice('--dir='.length));
    else if (arg.startsWith('--mapdir=')) {
      const [guest, host] = arg.slice('--mapdir='.length).split('::');
      options.mapdirs.push({ guest, host });
    } else if (arg.startsWith('-o=')) options.output = arg.slice(3);
    else if (arg === '-o') options.output = argv[++i];
    else if (arg.startsWith('-')) continue; // --allow-wasi, --wasm-bulk-memory=true, --inherit-env=true
    else options.input = arg;
  }
  if (!options.input || !options.output) throw new Error('usage: deterministic-wizer [--init-func NAME] [--dir=H] [--mapdir=G::H] -o=OUT IN < ARGS');
  return options;
}

async function initialise(module, info, options, engineArgs) {
  const maxPages = Math.ceil((Number(process.env.TALON_WIZER_MAX_MEMORY_MB ?? 1024) * 1_048_576) / PAGE);
  const compiled = await WebAssembly.compile(instrument(module, info, maxPages));

  // Fixed guest names for --dir folders, and their host paths replaced in the engine's arguments.
  const preopens = {};
  let args = engineArgs;
  options.dirs.forEach((host, i) => {
    const guest = `/preopen${i}`;
    preopens[guest] = host;
    args = args.split(host).join(guest);
  });
  for (const { guest, host } of options.mapdirs) preopens[guest] = host;
  const scratch = mkdtempSync(join(tmpdir(), 'talon-wizer-'));
  const stdinPath = join(scratch, 'stdin');
  writeFileSync(stdinPath, args);
  const stdin = openSync(stdinPath, 'r');
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => ENGINE_ENV.test(key)));
  const wasi = new WASI({ version: 'preview1', args: [], env, preopens, stdin, returnOnExit: true });

  let memory;
  const random = deterministicBytes();
  let ticks = 0n;
  const system = {
    ...wasi.wasiImport,
    random_get(ptr, len) {
      new Uint8Array(memory.buffer, ptr, len).set(random(len));
      return 0;
    },
    clock_time_get(id, _precision, ptr) {
      ticks += 1_000n;
      new DataView(memory.buffer).setBigUint64(ptr, (id === 0 ? FIXED_EPOCH_NS : 0n) + ticks, true);
      return 0;
    },
    clock_res_get(_id, ptr) {
      new DataView(memory.buffer).setBigUint64(ptr, 1_000n, true);
      return 0;
    },
  };
  const imports = {};
  for (const { module: from, name: field, kind } of WebAssembly.Module.imports(compiled)) {
    imports[from] ??= {};
    if (from === 'wasi_snapshot_preview1' && system[field]) imports[from][field] = system[field];
    else if (kind === 'function')
      imports[from][field] = () => {
        throw new Error(`unexpected call to ${from}#${field} during initialisation`);
      };
    else throw new Error(`cannot provide the imported ${kind} ${from}#${field} during initialisation`);
  }
  const instance = await WebAssembly.instantiate(compiled, imports);
  memory = instance.exports.memory ?? instance.exports.__snapshot_memory_0;
  try {
    wasi.initialize(instance); // runs `_initialize` when the module is a reactor
    const init = instance.exports[options.initFunc];
    if (typeof init !== 'function') throw new Error(`the module exports no init function ${options.initFunc}`);
    init();
  } finally {
    closeSync(stdin);
    rmSync(scratch, { recursive: true, force: true });
  }
  return instance;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const engineArgs = readFileSync(0, 'utf8');
  const module = readFileSync(options.input);
  const info = analyse(module);
  const instance = await initialise(module, info, options, engineArgs);
  writeFileSync(options.output, snapshot(module, info, instance, options.initFunc));
}

main().catch((error) => {
  // node:wasi answers the engine's proc_exit by throwing a symbol; the engine has written its error to stderr.
  const reason = typeof error === 'symbol' ? 'the engine exited during initialisation (see above)' : (error?.stack ?? String(error));
  process.stderr.write(`deterministic-wizer: ${reason}\n`);
  process.exit(1);
});
