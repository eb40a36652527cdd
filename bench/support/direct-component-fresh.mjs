// A component's cold start in a fresh Node process: transpile (from `cacheDir` when warm), compile,
// instantiate and the first `execute`, timed from inside the process once Node itself has started (as a
// runner has when an install reaches it). Prints one JSON line: { instantiateMs, firstExecuteMs, totalMs }.
// Usage: node direct-component-fresh.mjs <cacheDir> <component.wasm> <params JSON>
import { readFileSync } from 'node:fs';
import { instantiateDirect } from './direct-component.mjs';

const [cacheDir, componentPath, params] = process.argv.slice(2);
const started = performance.now();
const component = await instantiateDirect(cacheDir, readFileSync(componentPath), 128);
const instantiated = performance.now();
const result = component.execute({ params });
const executed = performance.now();
if (result.error !== undefined) throw new Error(`execute failed: ${result.error}`);
const ms = (value) => Math.round(value * 1000) / 1000;
process.stdout.write(
  `${JSON.stringify({
    instantiateMs: ms(instantiated - started),
    firstExecuteMs: ms(executed - instantiated),
    totalMs: ms(executed - started),
  })}\n`,
);
