#!/usr/bin/env node
// Quick figures for the component runtime, in-process (no NATS): cold start with an empty and a warm transpile
// cache, cold start of a recycled worker, warm execute through the pool against a direct call of the same
// component in this thread, and one host http-request. Needs `node tools-src/build.mjs` and `tsc -b libs/wasm-host`.
// Cold starts run in fresh child processes: within one process V8 reuses the compiled code of identical modules.
// Usage: node libs/wasm-host/scripts/measure.mjs [iterations]   (last line: JSON)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ComponentCompiler,
  ComponentToolLoader,
  FetchHostHttpClient,
  parseCapabilities,
} from '../dist/index.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const ITERATIONS = process.argv[2] === '--cold' ? 0 : Number(process.argv[2] ?? 2000);
const bytesOf = (path) => readFileSync(join(ROOT, path));
const context = () => ({
  callId: 'bench',
  signal: new AbortController().signal,
  grants: [],
  log: () => undefined,
});

function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: +at(0.5).toFixed(4), p99: +at(0.99).toFixed(4) };
}

async function timed(fn) {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

async function series(n, fn) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  return percentiles(samples);
}

async function coldStart(cacheDir, name, path, capabilities, params) {
  const loader = new ComponentToolLoader({ compiler: new ComponentCompiler({ cacheDir }), host: {} });
  const [loadMs, tool] = await timed(() =>
    loader.loadTool(name, { bytes: bytesOf(path), capabilities, version: '1' }),
  );
  const [firstMs] = await timed(() => tool.execute(params, context()));
  await tool.version.pool.close();
  return {
    loadMs: +loadMs.toFixed(1),
    firstExecuteMs: +firstMs.toFixed(2),
    totalMs: +(loadMs + firstMs).toFixed(1),
  };
}

/** The same component instantiated in this thread and called directly: the baseline without a worker hop. */
async function directInstance(cacheDir, path, memoryMb) {
  const compiler = new ComponentCompiler({ cacheDir });
  const compiled = await compiler.compile(bytesOf(path));
  const modules = await compiler.loadModules(compiled, memoryMb);
  const { instantiate } = await import(compiled.entryUrl);
  return instantiate((name) => modules[name], {
    'talon:tool/host': {
      log: () => undefined,
      nowMillis: () => BigInt(Date.now()),
      secretExists: () => false,
      httpRequest: () => {
        throw { payload: 'denied' };
      },
      workspaceRead: () => {
        throw { payload: 'denied' };
      },
      toolInvoke: () => {
        throw { payload: 'denied' };
      },
    },
  });
}

const jsCaps = parseCapabilities({
  effects: [],
  limits: { memory_mb: 128, timeout_ms: 5000, max_concurrency: 1 },
});
const watCaps = parseCapabilities({
  effects: [],
  limits: { memory_mb: 4, timeout_ms: 5000, max_concurrency: 1 },
});
const textParams = { text: 'the quick brown fox jumps over the lazy dog\nthe end', top: 3 };

/** Child mode: one cold start (load + first execute) in this fresh process, printed as JSON. */
async function coldChild(cacheDir, tool) {
  const result =
    tool === 'probe'
      ? await coldStart(cacheDir, 'probe', 'tools-src/wat/build/probe.wasm', watCaps, { x: 1 })
      : await coldStart(
          cacheDir,
          'text-stats',
          'tools-src/text-stats/build/text-stats.wasm',
          jsCaps,
          textParams,
        );
  console.log(JSON.stringify(result));
}

async function main() {
  const cacheDir = mkdtempSync(join(tmpdir(), 'talon-measure-'));
  const server = createServer((_request, response) => response.end('{"ok":true}'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${server.address().port}`;
  try {
    const coldInChild = (tool) =>
      JSON.parse(
        execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--cold', cacheDir, tool], {
          encoding: 'utf8',
        })
          .trim()
          .split('\n')
          .at(-1),
      );
    const medianOfFive = (tool) => {
      const runs = Array.from({ length: 5 }, () => coldInChild(tool)).sort((a, b) => a.totalMs - b.totalMs);
      return { ...runs[2], runsMs: runs.map((run) => run.totalMs) };
    };
    const coldEmpty = coldInChild('text-stats');
    const coldWarmCache = medianOfFive('text-stats');
    const watColdEmpty = coldInChild('probe');
    const watColdWarmCache = medianOfFive('probe');

    const loader = new ComponentToolLoader({
      compiler: new ComponentCompiler({ cacheDir }),
      host: { httpClient: new FetchHostHttpClient() },
    });
    const text = await loader.loadTool('text-stats', {
      bytes: bytesOf('tools-src/text-stats/build/text-stats.wasm'),
      capabilities: jsCaps,
      version: '1',
    });
    const probe = await loader.loadTool('probe', {
      bytes: bytesOf('tools-src/wat/build/probe.wasm'),
      capabilities: watCaps,
      version: '1',
    });
    const hostProbe = await loader.loadTool('host-probe', {
      bytes: bytesOf('tools-src/host-probe/build/host-probe.wasm'),
      capabilities: parseCapabilities({
        effects: ['network'],
        http: { allowlist: [{ host, path_prefix: '/', methods: ['GET'] }] },
        limits: { max_concurrency: 1 },
      }),
      version: '1',
    });

    // A recycled worker: the modules are compiled already, only the worker and the instance are new.
    await probe.execute({ mode: 't' }, context()).catch(() => undefined);
    const [recycledProbeMs] = await timed(() => probe.execute({ x: 1 }, context()));
    await text.version.pool.close();
    const textAgain = await loader.loadTool('text-stats', {
      bytes: bytesOf('tools-src/text-stats/build/text-stats.wasm'),
      capabilities: jsCaps,
      version: '1',
    });
    const [textNewPoolMs] = await timed(async () => {
      const fresh = await loader.loadTool('text-stats', {
        bytes: bytesOf('tools-src/text-stats/build/text-stats.wasm'),
        capabilities: jsCaps,
        version: '1',
      });
      await fresh.execute(textParams, context());
      await fresh.version.pool.close();
    });

    for (let i = 0; i < 200; i++) await textAgain.execute(textParams, context());
    const warmText = await series(ITERATIONS, () => textAgain.execute(textParams, context()));
    const warmProbe = await series(ITERATIONS, () => probe.execute({ x: 1 }, context()));

    const directText = await directInstance(cacheDir, 'tools-src/text-stats/build/text-stats.wasm', 128);
    const directProbe = await directInstance(cacheDir, 'tools-src/wat/build/probe.wasm', 4);
    const textJson = JSON.stringify(textParams);
    for (let i = 0; i < 200; i++) directText.execute({ params: textJson });
    const directTextP = await series(ITERATIONS, () => directText.execute({ params: textJson }));
    const directProbeP = await series(ITERATIONS, () => directProbe.execute({ params: '{"x":1}' }));

    const httpParams = { op: 'http', url: `http://${host}/x` };
    for (let i = 0; i < 50; i++) await hostProbe.execute(httpParams, context());
    const hostHttp = await series(Math.min(ITERATIONS, 500), () => hostProbe.execute(httpParams, context()));
    const directFetch = await series(Math.min(ITERATIONS, 500), async () =>
      (await fetch(`http://${host}/x`)).text(),
    );

    const ratio = (a, b) => +(a.p50 / b.p50).toFixed(1);
    const result = {
      iterations: ITERATIONS,
      coldStartMs: {
        textStatsEmptyCache: coldEmpty,
        textStatsWarmCache: coldWarmCache,
        probeEmptyCache: watColdEmpty,
        probeWarmCache: watColdWarmCache,
        probeRecycledWorker: +recycledProbeMs.toFixed(2),
        textStatsNewPoolCompiledModules: +textNewPoolMs.toFixed(1),
      },
      warmExecuteMs: {
        textStatsPool: warmText,
        textStatsDirect: directTextP,
        textStatsRatio: ratio(warmText, directTextP),
        probePool: warmProbe,
        probeDirect: directProbeP,
        probeRatio: ratio(warmProbe, directProbeP),
      },
      hostHttpRequestMs: { throughComponent: hostHttp, directFetch, ratio: ratio(hostHttp, directFetch) },
    };
    console.table({
      'cold, empty cache (text-stats)': { ms: coldEmpty.totalMs },
      'cold, warm cache (text-stats)': { ms: coldWarmCache.totalMs },
      'cold, empty cache (WAT probe)': { ms: watColdEmpty.totalMs },
      'cold, warm cache (WAT probe)': { ms: watColdWarmCache.totalMs },
      'recycled worker, first call (WAT probe)': { ms: result.coldStartMs.probeRecycledWorker },
      'new pool, modules compiled (text-stats)': { ms: result.coldStartMs.textStatsNewPoolCompiledModules },
      'warm execute p50 pool / direct (text-stats)': { ms: `${warmText.p50} / ${directTextP.p50}` },
      'warm execute p50 pool / direct (WAT probe)': { ms: `${warmProbe.p50} / ${directProbeP.p50}` },
      'http-request p50 component / fetch': { ms: `${hostHttp.p50} / ${directFetch.p50}` },
    });
    await Promise.all([textAgain, probe, hostProbe].map((tool) => tool.version.pool.close()));
    console.log(JSON.stringify(result));
  } finally {
    server.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--cold') await coldChild(process.argv[3], process.argv[4]);
else await main();
