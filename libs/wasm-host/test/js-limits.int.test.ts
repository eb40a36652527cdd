import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ComponentCompiler } from '../src/component-compiler.js';
import { ComponentToolLoader } from '../src/component-tool-loader.js';
import type { WasmTool } from '../src/wasm-tool.js';
import { artifact, buildToolsAndWorker, capabilities, tempDir, toolContext } from './wasm-test-setup.js';

describe('limits on a componentize-js tool (StarlingMonkey engine inside the component)', () => {
  const cache = tempDir('wasm-cache');
  let loader: ComponentToolLoader;
  let tool: WasmTool;
  let spinner: WasmTool;

  beforeAll(async () => {
    buildToolsAndWorker();
    loader = new ComponentToolLoader({ compiler: new ComponentCompiler({ cacheDir: cache.path }), host: {} });
    // The bomb needs a few seconds of garbage collection near the cap before the engine gives up.
    tool = await loader.loadTool('host-probe', {
      bytes: artifact('host-probe'),
      capabilities: capabilities({ limits: { memory_mb: 48, timeout_ms: 20000, max_concurrency: 1 } }),
      version: '1',
    });
    spinner = await loader.loadTool('host-probe', {
      bytes: artifact('host-probe'),
      capabilities: capabilities({ limits: { timeout_ms: 1000, max_concurrency: 1 } }),
      version: '1',
    });
  }, 120_000);

  afterAll(async () => {
    await tool?.version.pool.close();
    await spinner?.version.pool.close();
    cache.cleanup();
  });

  it('stops a JavaScript memory bomb at the cap and serves the next call from a fresh worker', async () => {
    const before = tool.version.pool.stats();
    const error = await tool.execute({ op: 'hog' }, toolContext()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'MemoryLimitError', code: 'TOOL_FAILED' });
    expect((error as Error).message).toContain('48 MB memory cap');
    expect(tool.version.pool.stats().recycled).toBe(before.recycled + 1);
    await expect(tool.execute({ op: 'now' }, toolContext())).resolves.toMatchObject({
      ok: expect.any(Number),
    });
  }, 30_000);

  it('stops a JavaScript busy loop at its timeout', async () => {
    const started = performance.now();
    const error = await spinner.execute({ op: 'spin' }, toolContext()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      name: 'ToolTimeoutError',
      code: 'TIMEOUT',
      details: { reason: 'timeout' },
    });
    expect(performance.now() - started).toBeLessThan(4000);
    await expect(spinner.execute({ op: 'now' }, toolContext())).resolves.toMatchObject({
      ok: expect.any(Number),
    });
  }, 30_000);

  it('refuses a memory cap below what the engine needs at start', async () => {
    const error = await loader
      .loadTool('tiny', {
        bytes: artifact('text-stats'),
        capabilities: capabilities({ limits: { memory_mb: 4 } }),
        version: '1',
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ComponentLoadError', code: 'TOOL_FAILED' });
    expect((error as Error).message).toMatch(/needs 10 MB of memory at start, above the cap of 4 MB/);
  });
});
