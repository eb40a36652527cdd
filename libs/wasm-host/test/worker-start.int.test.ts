import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ComponentCompiler, type CompiledComponent } from '../src/component-compiler.js';
import { ComponentLoadError } from '../src/errors/component-load-error.js';
import { HostImports } from '../src/host-imports.js';
import { ComponentWorkerPool } from '../src/worker-pool.js';
import { artifact, buildToolsAndWorker, capabilities, tempDir, toolContext } from './wasm-test-setup.js';

// A worker starts (boots Node, imports the component's glue) while the component's core modules still compile,
// and receives them when they are ready: on a cold start the two overlap instead of following each other.
describe('component worker start (real worker threads, the WAT probe)', () => {
  const cache = tempDir('wasm-start-cache');
  const compiler = new ComponentCompiler({ cacheDir: cache.path });
  let compiled: CompiledComponent;
  let pool: ComponentWorkerPool | undefined;

  beforeAll(async () => {
    buildToolsAndWorker();
    compiled = await compiler.compile(artifact('probe', 'wat'));
  }, 120_000);

  afterAll(async () => {
    await pool?.close();
    cache.cleanup();
  });

  function poolWith(modules: Promise<Record<string, WebAssembly.Module>>): ComponentWorkerPool {
    return new ComponentWorkerPool({
      toolName: 'probe',
      component: { entryUrl: compiled.entryUrl, modules },
      hostImports: new HostImports(capabilities({}), {}),
      timeoutMs: 5000,
      maxConcurrency: 1,
      memoryMb: 4,
      maxOutputBytes: 10_000,
    });
  }

  it('starts a worker before its modules exist, and it answers once they arrive', async () => {
    let deliver!: (modules: Record<string, WebAssembly.Module>) => void;
    pool = poolWith(new Promise((resolve) => (deliver = resolve)));
    let described = false;
    const describing = pool.describe().then((answer) => {
      described = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The worker is there, waiting for its modules; nothing has been answered yet.
    expect(pool.stats()).toMatchObject({ workers: 1, inFlight: 1 });
    expect(described).toBe(false);
    deliver(await compiler.loadModules(compiled, 4));
    await expect(describing).resolves.toMatchObject({
      description: expect.stringMatching(/^Hand-written probe/),
    });
    const result = await pool.execute({
      params: JSON.stringify({ hello: 'world' }),
      host: { ...toolContext(), secrets: { get: async () => undefined } },
    });
    expect(JSON.parse(result.output ?? '')).toEqual({ hello: 'world' });
  });

  it('fails the start with the compile error itself, and keeps no worker', async () => {
    await pool?.close();
    const failure = new ComponentLoadError('the core module does not compile');
    pool = poolWith(Promise.reject(failure));
    await expect(pool.describe()).rejects.toBe(failure);
    expect(pool.stats()).toMatchObject({ workers: 0, inFlight: 0 });
  });

  it("runs the component's glue in a thread that holds none of the runner's environment", async () => {
    await pool?.close();
    process.env['TALON_TEST_RUNNER_SECRET'] = 'only-in-the-runner';
    try {
      // Glue that reports the environment it sees, by failing with it.
      const entry = join(cache.path, 'env-report.mjs');
      writeFileSync(entry, "throw new Error('env=' + JSON.stringify(Object.keys(process.env)));\n");
      pool = new ComponentWorkerPool({
        toolName: 'env-report',
        component: { entryUrl: pathToFileURL(entry).href, modules: Promise.resolve({}) },
        hostImports: new HostImports(capabilities({}), {}),
        timeoutMs: 5000,
        maxConcurrency: 1,
        memoryMb: 4,
        maxOutputBytes: 10_000,
      });
      const error = await pool.describe().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ComponentLoadError);
      expect((error as Error).message).toContain('env=[]');
    } finally {
      delete process.env['TALON_TEST_RUNNER_SECRET'];
    }
  });
});
