import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ComponentCompiler } from '../src/component-compiler.js';
import { ComponentToolLoader } from '../src/component-tool-loader.js';
import { artifact, buildToolsAndWorker, capabilities, tempDir } from './wasm-test-setup.js';

// A component whose function does not type-check is refused at install (jco's transpile validates every
// function body), and a core module in the compile cache changed or cut short on disk after its transpile
// fails the load with a typed error that says what to do, before any of its code runs.
/** The probe's `schema()`: i32.const 2048, i32.const 57, call. */
const SCHEMA_BODY = Buffer.from([0x41, 0x80, 0x10, 0x41, 0x39, 0x10]);

describe('WebAssembly validation (the WAT probe with one function made invalid)', () => {
  const caps = capabilities({ limits: { memory_mb: 4, timeout_ms: 2000, max_concurrency: 1 } });
  const cache = tempDir('wasm-validation-cache');

  /** `schema()`'s body calls a two-argument function with two constants; two nops instead of the second. */
  function invalidated(bytes: Uint8Array): Uint8Array {
    const copy = Buffer.from(bytes);
    const at = copy.indexOf(SCHEMA_BODY);
    expect(at).toBeGreaterThan(0);
    expect(copy.indexOf(SCHEMA_BODY, at + 1)).toBe(-1);
    copy[at + 3] = 0x01;
    copy[at + 4] = 0x01;
    return copy;
  }

  /** What loading the probe's `bytes` with a fresh compiler (nothing in memory) over `cacheDir` fails with. */
  async function loadError(cacheDir: string, bytes: Uint8Array): Promise<unknown> {
    const compiler = new ComponentCompiler({ cacheDir });
    try {
      const loader = new ComponentToolLoader({ compiler, host: {} });
      return await loader
        .loadTool('probe', { bytes, capabilities: caps, version: '1.0.0' })
        .then(() => undefined)
        .catch((caught: unknown) => caught);
    } finally {
      await compiler.close();
    }
  }

  /** Transpiles the probe into `cacheDir`, then rewrites each cached core module with `change`. */
  async function cacheChanged(cacheDir: string, change: (module: Buffer) => Uint8Array): Promise<string> {
    const compiler = new ComponentCompiler({ cacheDir });
    const compiled = await compiler.compile(artifact('probe', 'wat'));
    await compiler.close();
    for (const name of compiled.coreModules) {
      const path = join(compiled.dir, name);
      writeFileSync(path, change(readFileSync(path)));
    }
    return compiled.dir;
  }

  beforeAll(() => buildToolsAndWorker(), 120_000);
  afterAll(() => cache.cleanup());

  it('refuses at install a component whose function does not type-check', async () => {
    const error = await loadError(cache.path, invalidated(artifact('probe', 'wat')));
    expect(error).toMatchObject({ name: 'ComponentLoadError', code: 'TOOL_FAILED' });
    expect((error as Error).message).toMatch(/type mismatch/);
  });

  it('fails typed, before it runs, a cached core module changed after its transpile', async () => {
    const dir = await cacheChanged(cache.path, (module) =>
      module.includes(SCHEMA_BODY) ? invalidated(module) : module,
    );
    const error = await loadError(cache.path, artifact('probe', 'wat'));
    expect(error).toMatchObject({ name: 'ComponentLoadError', code: 'TOOL_FAILED' });
    expect((error as Error).message).toMatch(/Compiling function #\d+ failed/);
    expect((error as Error).message).toContain(`delete ${dir}`);
  });

  it('fails typed a cached core module cut short', async () => {
    const other = tempDir('wasm-truncated-cache');
    try {
      const dir = await cacheChanged(other.path, (module) => module.subarray(0, 40));
      const error = await loadError(other.path, artifact('probe', 'wat'));
      expect(error).toMatchObject({ name: 'ComponentLoadError', code: 'TOOL_FAILED' });
      expect((error as Error).message).toContain(`delete ${dir}`);
    } finally {
      other.cleanup();
    }
  });
});
