import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ComponentCompiler } from '../src/component-compiler.js';
import { ComponentToolLoader } from '../src/component-tool-loader.js';
import { artifact, buildToolsAndWorker, capabilities, tempDir } from './wasm-test-setup.js';

// A component whose function does not type-check is refused at install (jco's transpile validates every
// function body), and a core module in the compile cache changed or cut short on disk after its transpile
// fails the load with a typed error that says what to do, before any of its code runs.
describe('WebAssembly validation (the WAT probe with one function made invalid)', () => {
  const caps = capabilities({ limits: { memory_mb: 4, timeout_ms: 2000, max_concurrency: 1 } });
  const cache = tempDir('wasm-validation-cache');

  /** `schema()`'s body calls a two-argument function with two constants; two nops instead of the second. */
  function invalidated(bytes: Uint8Array): Uint8Array {
    const body = Buffer.from([0x41, 0x80, 0x10, 0x41, 0x39, 0x10]); // i32.const 2048, i32.const 57, call
    const copy = Buffer.from(bytes);
    const at = copy.indexOf(body);
    expect(at).toBeGreaterThan(0);
    expect(copy.indexOf(body, at + 1)).toBe(-1);
    copy[at + 3] = 0x01;
    copy[at + 4] = 0x01;
    return copy;
  }

  beforeAll(() => buildToolsAndWorker(), 120_000);
  afterAll(() => cache.cleanup());

  it('refuses at install a component whose function does not type-check', async () => {
    const loader = new ComponentToolLoader({
      compiler: new ComponentCompiler({ cacheDir: cache.path }),
      host: {},
    });
    const error = await loader
      .loadTool('probe', {
        bytes: invalidated(artifact('probe', 'wat')),
        capabilities: caps,
        version: '1.0.0',
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ComponentLoadError', code: 'TOOL_FAILED' });
    expect((error as Error).message).toMatch(/type mismatch/);
  });

  it('fails typed, before it runs, a cached core module changed after its transpile', async () => {
    const bytes = artifact('probe', 'wat');
    const first = new ComponentCompiler({ cacheDir: cache.path });
    const compiled = await first.compile(bytes);
    for (const name of readdirSync(compiled.dir).filter((file) => file.endsWith('.wasm'))) {
      const path = join(compiled.dir, name);
      const content = readFileSync(path);
      if (content.includes(Buffer.from([0x41, 0x80, 0x10, 0x41, 0x39, 0x10])))
        writeFileSync(path, invalidated(content));
    }
    await first.close();
    // A fresh compiler (no modules in memory) reads the changed module from the cache.
    const loader = new ComponentToolLoader({
      compiler: new ComponentCompiler({ cacheDir: cache.path }),
      host: {},
    });
    const error = await loader
      .loadTool('probe', { bytes, capabilities: caps, version: '1.0.0' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ComponentLoadError', code: 'TOOL_FAILED' });
    expect((error as Error).message).toMatch(/Compiling function #\d+ failed/);
    expect((error as Error).message).toContain(`delete ${compiled.dir}`);
  });

  it('fails typed a cached core module cut short', async () => {
    const bytes = artifact('probe', 'wat');
    const dir = tempDir('wasm-truncated-cache');
    try {
      const first = new ComponentCompiler({ cacheDir: dir.path });
      const compiled = await first.compile(bytes);
      await first.close();
      for (const name of compiled.coreModules) {
        const path = join(compiled.dir, name);
        writeFileSync(path, readFileSync(path).subarray(0, 40));
      }
      const loader = new ComponentToolLoader({
        compiler: new ComponentCompiler({ cacheDir: dir.path }),
        host: {},
      });
      const error = await loader
        .loadTool('probe', { bytes, capabilities: caps, version: '1.0.0' })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'ComponentLoadError', code: 'TOOL_FAILED' });
      expect((error as Error).message).toContain(`delete ${compiled.dir}`);
    } finally {
      dir.cleanup();
    }
  });
});
