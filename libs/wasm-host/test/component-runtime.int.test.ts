import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TalonError } from '@talon/errors';
import { talonMetrics } from '@talon/telemetry';
import { CallAbort } from '@talon/tool-runtime';
import { ComponentCompiler } from '../src/component-compiler.js';
import { ComponentToolLoader } from '../src/component-tool-loader.js';
import type { WasmTool } from '../src/wasm-tool.js';
import { artifact, buildToolsAndWorker, capabilities, tempDir, toolContext } from './wasm-test-setup.js';

describe('component runtime (hand-written WAT probe, real worker threads)', () => {
  const cache = tempDir('wasm-cache');
  let loader: ComponentToolLoader;
  let probe: WasmTool;
  /** Workers stopped so far in this process, by reason, as the metric counts them. */
  const stops = async (reason: string) =>
    (await talonMetrics().wasmWorkerStops.get()).values.find((value) => value.labels.reason === reason)
      ?.value ?? 0;

  beforeAll(async () => {
    buildToolsAndWorker();
    loader = new ComponentToolLoader({ compiler: new ComponentCompiler({ cacheDir: cache.path }), host: {} });
    probe = await loader.loadTool('probe', {
      bytes: artifact('probe', 'wat'),
      capabilities: capabilities({ limits: { memory_mb: 4, timeout_ms: 500, max_concurrency: 2 } }),
      version: '1.0.0',
    });
  }, 120_000);

  afterAll(async () => {
    await probe?.version.pool.close();
    cache.cleanup();
  });

  it('describes itself from schema() and description()', () => {
    expect(probe.definition).toMatchObject({
      name: 'probe',
      domain: 'container',
      source: 'wasm',
      timeoutMs: 500,
      parameters: { type: 'object', properties: { mode: { type: 'string' } } },
    });
    expect(probe.definition.description).toMatch(/^Hand-written probe/);
  });

  it('echoes params through the worker', async () => {
    await expect(probe.execute({ hello: 'world' }, toolContext())).resolves.toEqual({ hello: 'world' });
  });

  it('turns a guest error into a typed TOOL_FAILED error without recycling the worker', async () => {
    const before = probe.version.pool.stats();
    const error = await probe.execute({ mode: 'e' }, toolContext()).catch((caught: unknown) => caught);
    expect(TalonError.isInstance(error) && error.code).toBe('TOOL_FAILED');
    expect((error as Error).message).toContain('failed on purpose');
    expect(probe.version.pool.stats().recycled).toBe(before.recycled);
  });

  it('recycles the worker after a trap, and the next call succeeds', async () => {
    const before = probe.version.pool.stats();
    const counted = await stops('recycled');
    const error = await probe.execute({ mode: 't' }, toolContext()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ToolTrapError', code: 'TOOL_FAILED' });
    expect(await stops('recycled')).toBe(counted + 1);
    expect((error as Error).message).toMatch(/unreachable/);
    expect(probe.version.pool.stats().recycled).toBe(before.recycled + 1);
    await expect(probe.execute({ after: 'trap' }, toolContext())).resolves.toEqual({ after: 'trap' });
    expect(probe.version.pool.stats().started).toBeGreaterThan(before.started);
  });

  it('starts a replacement worker in the background after a recycle', async () => {
    // A replacement starts when a recycle leaves no idle worker: trap until the last idle one is gone (the
    // test before may have left two).
    let afterTrap = probe.version.pool.stats();
    for (let traps = 0; traps < 4; traps++) {
      await probe.execute({ mode: 't' }, toolContext()).catch(() => undefined);
      afterTrap = probe.version.pool.stats();
      if (afterTrap.idle === 0) break;
    }
    expect(afterTrap).toMatchObject({ idle: 0, inFlight: 0 });
    const deadline = Date.now() + 3000;
    while (probe.version.pool.stats().idle === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    // Ready without any call asking for it: no worker started since.
    const ready = probe.version.pool.stats();
    expect(ready).toMatchObject({ inFlight: 0, started: afterTrap.started });
    expect(ready.idle).toBeGreaterThanOrEqual(1);
    await expect(probe.execute({ warm: true }, toolContext())).resolves.toEqual({ warm: true });
    // The ready worker served it: the call started none of its own.
    expect(probe.version.pool.stats()).toMatchObject({ started: afterTrap.started, inFlight: 0 });
  });

  it('stops an infinite loop at its timeout, and the next call succeeds', async () => {
    const started = performance.now();
    const error = await probe.execute({ mode: 'l' }, toolContext()).catch((caught: unknown) => caught);
    const elapsed = performance.now() - started;
    expect(error).toMatchObject({
      name: 'ToolTimeoutError',
      code: 'TIMEOUT',
      details: { reason: 'timeout' },
    });
    expect(elapsed).toBeGreaterThanOrEqual(490);
    expect(elapsed).toBeLessThan(2000);
    await expect(probe.execute({ after: 'loop' }, toolContext())).resolves.toEqual({ after: 'loop' });
  });

  it('stops a memory bomb at its cap', async () => {
    const error = await probe.execute({ mode: 'g' }, toolContext()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'MemoryLimitError', code: 'TOOL_FAILED' });
    expect((error as Error).message).toContain('4 MB');
    await expect(probe.execute({ after: 'bomb' }, toolContext())).resolves.toEqual({ after: 'bomb' });
  });

  it('retires a worker whose memory its calls grew near the cap, so a leaking guest never traps a call', async () => {
    // The probe's allocator never frees: each echo keeps its params in memory, as componentize-js guests leak
    // a little on every call. 4 MB cap, 256 KiB a call: without retirement the 15th call or so traps.
    const leaky = await loader.loadTool('leaky-probe', {
      bytes: artifact('probe', 'wat'),
      capabilities: capabilities({ limits: { memory_mb: 4, timeout_ms: 2000, max_concurrency: 1 } }),
      version: '1.0.0',
    });
    const [recycledBefore, retiredBefore] = [await stops('recycled'), await stops('retired')];
    try {
      const text = 'x'.repeat(256 * 1024);
      for (let call = 0; call < 40; call++)
        await expect(leaky.execute({ call, text }, toolContext())).resolves.toEqual({ call, text });
      const stats = leaky.version.pool.stats();
      expect(stats.recycled).toBe(0);
      // 40 × 256 KiB kept is 2.5 × the cap; each worker is retired at three quarters of it.
      expect(stats.retired).toBeGreaterThanOrEqual(3);
      expect(stats.workers).toBeLessThanOrEqual(1);
      expect(await stops('retired')).toBe(retiredBefore + stats.retired);
      expect(await stops('recycled')).toBe(recycledBefore);
    } finally {
      await leaky.version.pool.close();
    }
  });

  it('cancels a running call when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await probe
      .execute({ mode: 'l' }, toolContext({ signal: controller.signal }))
      .catch((caught: unknown) => caught);
    // Cancelled, not run out at its 500 ms timeout.
    expect(error).toMatchObject({ code: 'TIMEOUT', details: { reason: 'cancelled' } });
  });

  it('is told of the abort through onAbort when the caller offers it, making no AbortSignal', async () => {
    const abort = new CallAbort();
    const context = toolContext({ onAbort: (listener) => abort.onAbort(listener) });
    Object.defineProperty(context, 'signal', {
      get: () => {
        throw new Error('an AbortSignal was made');
      },
    });
    await expect(probe.execute({ plain: true }, context)).resolves.toEqual({ plain: true });
    setTimeout(() => abort.abort(new Error('the caller gave up')), 50);
    const error = await probe.execute({ mode: 'l' }, context).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'TIMEOUT', details: { reason: 'cancelled' } });
    // Aborted before it starts: refused at once, the next call runs.
    await expect(probe.execute({ after: 'abort' }, context)).rejects.toMatchObject({
      details: { reason: 'cancelled' },
    });
    await expect(probe.execute({ after: 'abort' }, toolContext())).resolves.toEqual({ after: 'abort' });
  });

  it('runs at most max_concurrency calls at once and queues the rest', async () => {
    const pool = probe.version.pool;
    const calls = [
      probe.execute({ mode: 'l' }, toolContext()),
      probe.execute({ mode: 'l' }, toolContext()),
      probe.execute({ n: 3 }, toolContext()),
    ];
    // Workers start asynchronously (slowly on a loaded machine): wait until both slots are taken.
    for (let waited = 0; pool.stats().queued > 1 && waited < 5000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.stats()).toMatchObject({ workers: 2, inFlight: 3, queued: 1 });
    const settled = await Promise.allSettled(calls);
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(pool.stats().workers).toBeLessThanOrEqual(2);
  });
});
