import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from '@jest/globals';
import { HostImports } from '../src/host-imports.js';
import { ComponentWorkerPool } from '../src/worker-pool.js';
import { capabilities, ROOT } from './wasm-test-setup.js';

const MB = 1_048_576;
const script = pathToFileURL(join(ROOT, 'libs/wasm-host/test/fixtures/memory-reporting-worker.mjs'));

describe('worker retirement near the memory cap (real worker threads reporting chosen memory sizes)', () => {
  let pool: ComponentWorkerPool | undefined;

  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  /** A pool of one worker whose instance starts at `startMb` under a cap of `capMb`. */
  function poolOf(startMb: number, capMb: number): ComponentWorkerPool {
    return new ComponentWorkerPool({
      toolName: 'fake',
      component: {
        entryUrl: `file:///fake-component.mjs?start=${startMb * MB}`,
        modules: Promise.resolve({}),
      },
      hostImports: new HostImports(capabilities({}), {}),
      timeoutMs: 5000,
      maxConcurrency: 1,
      memoryMb: capMb,
      maxOutputBytes: 1000,
      workerScript: script,
    });
  }

  /** Runs one call that leaves the instance at `memoryMb`; returns the pool's stats after it. */
  async function callLeaving(target: ComponentWorkerPool, memoryMb: number) {
    const host = {
      callId: 'call',
      signal: new AbortController().signal,
      secrets: { get: async () => undefined },
      log: () => undefined,
    };
    await target.execute({ params: JSON.stringify({ memoryBytes: memoryMb * MB }), host });
    return target.stats();
  }

  it('keeps a worker until its calls used three quarters of the room it started with', async () => {
    pool = poolOf(1, 5);
    // Room 4 MB: retired once it has grown by 3 MB.
    expect(await callLeaving(pool, 1)).toMatchObject({ retired: 0, idle: 1 });
    expect(await callLeaving(pool, 3.9)).toMatchObject({ retired: 0, idle: 1, started: 1 });
    expect((await callLeaving(pool, 4)).retired).toBe(1);
    // The replacement starts in the background and takes the next call.
    expect(await callLeaving(pool, 1)).toMatchObject({ retired: 1, started: 2 });
  });

  it('measures from the start: a tool that starts near its cap is replaced before it traps, not after every call', async () => {
    pool = poolOf(9, 10);
    // Above three quarters of the cap from the start, but with no growth: kept.
    expect((await callLeaving(pool, 9)).retired).toBe(0);
    expect((await callLeaving(pool, 9.5)).retired).toBe(0);
    expect((await callLeaving(pool, 9.75)).retired).toBe(1);
  });
});
