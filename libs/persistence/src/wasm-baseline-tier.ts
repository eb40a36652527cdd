import { setFlagsFromString } from 'node:v8';

/** The V8 flag that keeps WebAssembly on its baseline compiler (Liftoff), without optimizing tier-up. */
export const WASM_BASELINE_ONLY_FLAG = '--liftoff-only';

/**
 * Keeps WebAssembly compiled from now on at V8's baseline tier. PGlite is a 9 MB WebAssembly module, and
 * V8's optimizing tier-up compiles its hot functions again in the background and keeps both codes: an
 * idle orchestrator on PGlite measured 60-100 MiB less with tier-up off, at the same query speed in a
 * steady loop (insert + select: 0.24 ms either way). The flag is read when a module is compiled, so it must
 * be set before PGlite loads; it applies to the whole process, which on PGlite compiles no other hot
 * WebAssembly.
 */
export function useBaselineWasmTier(): void {
  setFlagsFromString(WASM_BASELINE_ONLY_FLAG);
}
