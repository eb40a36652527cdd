import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { waitUntil } from '@talon/testing';
import { ComponentCompiler } from '../src/component-compiler.js';
import { artifact, buildToolsAndWorker } from './wasm-test-setup.js';

describe('the transpile thread (jco in a real worker thread)', () => {
  const dirs: string[] = [];
  let compiler: ComponentCompiler | undefined;

  beforeAll(() => buildToolsAndWorker(), 120_000);

  afterEach(async () => {
    await compiler?.close();
    compiler = undefined;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function compilerStoppingAfter(idleMs: number): ComponentCompiler {
    const dir = mkdtempSync(join(tmpdir(), 'talon-transpiler-'));
    dirs.push(dir);
    return new ComponentCompiler({ cacheDir: dir, transpilerIdleStopMs: idleMs });
  }

  it('stops once idle, and starts again for the next transpile', async () => {
    compiler = compilerStoppingAfter(200);
    await compiler.warm();
    expect(compiler.transpilerRunning).toBe(true);
    await waitUntil(() => !compiler!.transpilerRunning, 5000, 'the idle transpile thread stopped', 20);
    const compiled = await compiler.compile(artifact('probe', 'wat'));
    expect(compiled).toMatchObject({ fromCache: false, coreModules: expect.any(Array) });
    expect(compiler.transpilerRunning).toBe(true);
    await waitUntil(() => !compiler!.transpilerRunning, 5000, 'the transpile thread stopped again', 20);
  }, 60_000);

  it('never stops while a transpile is running, however short the idle time', async () => {
    compiler = compilerStoppingAfter(1);
    // Keeps the thread busy for a second or more (12 MB): warm() answers first and arms the idle timer.
    const warming = compiler.warm();
    const large = compiler.compile(artifact('text-stats'));
    await warming;
    await expect(large).resolves.toMatchObject({ fromCache: false });
  }, 60_000);
});
