// WebAssembly tools end to end: an orchestrator and a wasm-runner as real processes, calls as an API client
// sends them (`tools.call` over NATS → orchestrator dispatcher → NATS → wasm-runner → component worker thread),
// each against the same component called directly in this thread.
//   cold start: tools.install + first tools.call, in a fresh runner once it has finished starting (its CPU
//   quiet: right after it announces it still spends about 100 ms, loading jco in its transpile thread), with
//   an empty and with a warm compile cache; beside it the same component's cold start in this thread and in
//   a fresh Node process (warm cache, timed once Node has started)
//   warm execute: text-stats (componentize-js) and the WAT probe
//   host http-request: host-probe calling a loopback server, against a plain fetch of the same URL
//   the stock NestJS service a user would write instead: ClientProxy → gateway → worker running text-stats in
//   its own thread (no worker thread, no limits, no validation, no audit): the same two hops
//   the raw nats.js chain (client → relay → responder running text-stats in its thread): the same two hops
//   with nothing else, the floor under both services
// Warm paths run in interleaved rounds (BENCH_ROUNDS, default 10); Talon/NestJS is the median of the rounds'
// own ratios, as in peer-nest.
// Targets (issue 19): warm execute through NATS p50 < 0.6 ms; cold start with a warm cache < 150 ms
// (they were 1 ms and 500 ms).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { instantiateDirect } from './support/direct-component.mjs';
import { untilQuiet } from './support/process-cpu.mjs';
import { createInProcessDispatcher } from './support/in-process-dispatcher.mjs';
import { REPO_ROOT, testing } from './support/processes.mjs';
import { startRawChain } from './support/raw-chain.mjs';
import { startStockNest } from './support/stock-nest.mjs';
import { loadAtStart, pairedRatio, printTable, summarize, timeInterleavedRounds } from './support/stats.mjs';
import { connectTalonApi } from './support/talon-api.mjs';

const COUNT = Number(process.env.BENCH_COUNT ?? 2000);
const LOAD_AT_START = loadAtStart('wasm');
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const TEXT = { text: 'the quick brown fox jumps over the lazy dog\nthe end' };
const textJson = JSON.stringify(TEXT);
const round = (value) => Math.round(value * 1000) / 1000;
const ratio = (a, b) => Math.round((a / b) * 100) / 100;

execFileSync(process.execPath, [join(REPO_ROOT, 'tools-src/build.mjs'), '--quiet'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
});
const component = (path) => join(REPO_ROOT, path);
const TEXT_STATS = component('tools-src/text-stats/build/text-stats.wasm');
const PROBE = component('tools-src/wat/build/probe.wasm');
const HOST_PROBE = component('tools-src/host-probe/build/host-probe.wasm');
const sha = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

const http = createServer((_request, response) => response.end('{"ok":true}'));
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
const httpUrl = `http://127.0.0.1:${http.address().port}/x`;

const base = mkdtempSync(join(tmpdir(), 'talon-bench-wasm-'));
const registryDir = join(base, 'registry');
mkdirSync(join(registryDir, 'tools'), { recursive: true });
mkdirSync(join(base, 'no-mcp'));
function entry(name, artifact, capabilities) {
  const file = {
    name,
    display_name: name,
    version: '0.1.0',
    wit_version: '0.1.0',
    description: `bench ${name}`,
    keywords: [],
    source: 'tools-src',
    artifact: { url: artifact, sha256: sha(artifact) },
    capabilities,
    auth: { required: false, secrets: [], summary: 'none' },
    tags: [],
  };
  writeFileSync(join(registryDir, 'tools', `${name}.json`), JSON.stringify(file));
}
entry('text-stats', TEXT_STATS, component('tools-src/text-stats/text-stats.capabilities.json'));
entry('probe', PROBE, { effects: [], limits: { memory_mb: 4, timeout_ms: 5000, max_concurrency: 2 } });
entry('host-probe', HOST_PROBE, {
  effects: ['network'],
  http: { allowlist: [{ host: `127.0.0.1:${http.address().port}`, path_prefix: '/', methods: ['GET'] }] },
  limits: { memory_mb: 128, timeout_ms: 5000, max_concurrency: 2 },
});

const nats = await testing.startNatsTestServer();
const database = await testing.createTestDatabase();
const orchestrator = await testing.startServiceProcess(
  'orchestrator',
  {
    NATS_URL: nats.url,
    // BENCH_DATABASE=pglite: PGlite with a data directory, as `talon up` runs it (the audit journal).
    ...(process.env.BENCH_DATABASE === 'pglite'
      ? { TALON_PGLITE_DIR: join(base, 'pglite') }
      : { DATABASE_URL: database.url }),
    LOG_LEVEL: 'warn',
    TALON_HTTP_PORT: String(await testing.findFreePort()),
    TALON_GRPC_PORT: String(await testing.findFreePort()),
  },
  { waitReady: false },
);
await orchestrator.waitForLog(() => true).catch(() => undefined);
const talon = await connectTalonApi(nats);
// The worker baseline below sends to the runner's subject as the orchestrator does.
const workerConnection = await nats.connect('orchestrator');
const stateDir = join(base, 'state');
const runnerEnv = {
  NATS_URL: nats.url,
  LOG_LEVEL: 'warn',
  TALON_STATE_DIR: stateDir,
  TALON_TOOL_REGISTRY_DIR: registryDir,
  TALON_MCP_REGISTRY_DIR: join(base, 'no-mcp'),
  TALON_SSRF_ALLOWLIST: '127.0.0.1/32',
};

const api = (method, payload) => talon.api(method, payload, 120_000);

async function untilCatalogHas(tool) {
  for (let i = 0; i < 400; i++) {
    // An orchestrator still creating its PGlite cluster has no responder yet.
    const list = await api('tools.list', {}).catch((error) => {
      if (error.code === 'NO_RESPONDERS') return { tools: [] };
      throw error;
    });
    if (list.tools.some((row) => row.definition.name === tool)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${tool} never reached the catalog`);
}

/** A fresh runner process: installed state cleared, compile cache emptied or kept; returns install + first call in ms. */
async function coldStart(emptyCache) {
  rmSync(join(stateDir, 'wasm', 'installed'), { recursive: true, force: true });
  if (emptyCache) rmSync(join(stateDir, 'wasm', 'cache'), { recursive: true, force: true });
  const runner = await testing.startServiceProcess('wasm-runner', runnerEnv, { waitReady: false });
  await untilCatalogHas('tool_install');
  await untilQuiet(runner.child.pid);
  const started = performance.now();
  await api('tools.install', { name: 'text-stats' });
  for (;;) {
    try {
      await talon.client.tools.call({ tool: 'text-stats', params: TEXT }, { timeoutMs: 30_000 });
      break;
    } catch (error) {
      if (error.code !== 'UNKNOWN_TOOL')
        throw new Error(`first call: ${error.code} ${error.message}`, { cause: error });
    }
  }
  const elapsed = performance.now() - started;
  return { elapsed, runner };
}

const coldEmpty = [];
const coldWarm = [];
let runner;
for (let i = 0; i < COLD_RUNS; i++) {
  // Installs are shared through JetStream, not the runner's folder: remove it so the next start installs again.
  const empty = await coldStart(true);
  coldEmpty.push(empty.elapsed);
  await api('tools.remove', { name: 'text-stats' });
  await empty.runner.stop();
  const warm = await coldStart(false);
  coldWarm.push(warm.elapsed);
  if (i < COLD_RUNS - 1) {
    await api('tools.remove', { name: 'text-stats' });
    await warm.runner.stop();
  } else runner = warm.runner;
}
await api('tools.install', { name: 'probe' });
await api('tools.install', { name: 'host-probe' });
await untilCatalogHas('host-probe');

// Direct baselines in this thread.
const directDir = join(base, 'direct-cache');
let started = performance.now();
const directTextCold = await instantiateDirect(join(directDir, 'a'), readFileSync(TEXT_STATS), 128);
directTextCold.execute({ params: JSON.stringify(TEXT) });
const directColdEmptyMs = performance.now() - started;
started = performance.now();
const directText = await instantiateDirect(join(directDir, 'a'), readFileSync(TEXT_STATS), 128);
directText.execute({ params: JSON.stringify(TEXT) });
const directColdWarmMs = performance.now() - started;
const directProbe = await instantiateDirect(join(directDir, 'b'), readFileSync(PROBE), 4);
// The same cold start in a fresh Node process (the compile cache warm, Node already started): what a
// one-shot process pays with no NATS, no upload and no record, against the in-process figures above, which
// reuse what V8 and jco have already loaded in this process.
const directFresh = [];
for (let i = 0; i < COLD_RUNS; i++) {
  const line = execFileSync(
    process.execPath,
    [join(REPO_ROOT, 'bench/support/direct-component-fresh.mjs'), join(directDir, 'a'), TEXT_STATS, textJson],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  directFresh.push(JSON.parse(line).totalMs);
}

// The stock NestJS two-hop service, its worker running the same component in its own thread.
const nest = await startStockNest(nats, 'wasm-worker', TEXT_STATS);
// The raw nats.js two-hop chain, its responder running the same component in its own thread: the floor of
// any service with these hops.
const rawChain = await startRawChain(nats, 'wasm-worker', TEXT_STATS);
const textViaRaw = async () => {
  const reply = await rawChain.call(TEXT);
  if (!reply.ok) throw new Error(`raw text-stats failed: ${reply.error.message}`);
};
const textViaNest = async () => {
  const stats = await nest.call(TEXT);
  if (typeof stats !== 'object' || stats === null) throw new Error(`nest text-stats failed: ${stats}`);
};

const callTool = (tool, params) => async () => {
  await talon.client.tools.call({ tool, params }, { timeoutMs: 10_000 });
};
// The orchestrator's dispatcher in this process: one NATS hop to the runner, without the API hop in front.
const inProcess = await createInProcessDispatcher(nats);
await inProcess.waitForInstances('text-stats', 1);
const workerCall = (tool, params) => {
  const payload = JSON.stringify({ callId: 'bench', tool, params, timeoutMs: 5000 });
  return async () => {
    const reply = (
      await workerConnection.request('talon.tools.v1.call.container', payload, { timeout: 10_000 })
    ).json();
    if (!reply.ok) throw new Error(`${tool}: ${reply.error.code}`);
  };
};
// Each path is warmed until its p50 stops falling (V8 compiles the services' hot paths over thousands of
// calls), then timed in rounds, every path once a round in an order rotated each round: this machine's speed
// drifts from minute to minute, and a path timed after another would be compared with a different machine.
const paths = {
  textOnRunner: workerCall('text-stats', TEXT),
  probeOnRunner: workerCall('probe', { x: 1 }),
  probeViaDispatcher: () => inProcess.dispatcher.call({ tool: 'probe', params: { x: 1 } }),
  textViaDispatcher: () => inProcess.dispatcher.call({ tool: 'text-stats', params: TEXT }),
  textViaTalon: callTool('text-stats', TEXT),
  textViaNest,
  textViaRaw,
  textDirect: async () => directText.execute({ params: textJson }),
  probeViaTalon: callTool('probe', { x: 1 }),
  probeDirect: async () => directProbe.execute({ params: '{"x":1}' }),
};
const httpPaths = {
  httpViaTalon: callTool('host-probe', { op: 'http', url: httpUrl }),
  httpDirect: async () => (await fetch(httpUrl)).text(),
};
const timed = await timeInterleavedRounds(paths, {
  rounds: ROUNDS,
  count: Math.ceil(COUNT / ROUNDS),
  warmup: 20,
  steady: { maxCalls: 20_000 },
});
const timedHttp = await timeInterleavedRounds(httpPaths, {
  rounds: ROUNDS,
  count: Math.ceil(Math.min(COUNT, 500) / ROUNDS),
  warmup: 5,
  steady: { maxCalls: 2000 },
});
const perRound = { ...timed.perRound, ...timedHttp.perRound };
const warmUpCalls = { ...timed.warmUpCalls, ...timedHttp.warmUpCalls };
const results = Object.fromEntries(
  Object.entries(perRound).map(([name, rounds]) => [name, summarize(rounds.flat())]),
);
const cold = {
  emptyCache: summarize(coldEmpty),
  warmCache: summarize(coldWarm),
  directEmptyCacheMs: round(directColdEmptyMs),
  directWarmCacheMs: round(directColdWarmMs),
  directFreshProcessWarmCache: summarize(directFresh),
};

printTable([
  {
    path: 'cold start, empty cache (install + first tools.call)',
    p50: cold.emptyCache.p50,
    p99: cold.emptyCache.p99,
    direct: cold.directEmptyCacheMs,
  },
  {
    path: 'cold start, warm cache (install + first tools.call)',
    p50: cold.warmCache.p50,
    p99: cold.warmCache.p99,
    direct: cold.directWarmCacheMs,
  },
  {
    path: 'the same cold start in a fresh Node process (no NATS, no upload)',
    p50: cold.directFreshProcessWarmCache.p50,
    p99: cold.directFreshProcessWarmCache.p99,
    direct: cold.directWarmCacheMs,
  },
  {
    path: 'warm text-stats via tools.call',
    p50: results.textViaTalon.p50,
    p99: results.textViaTalon.p99,
    direct: results.textDirect.p50,
  },
  {
    path: 'warm text-stats via stock NestJS (gateway → worker, in process)',
    p50: results.textViaNest.p50,
    p99: results.textViaNest.p99,
    direct: results.textDirect.p50,
  },
  {
    path: 'warm text-stats via raw nats.js (client → relay → responder, in process)',
    p50: results.textViaRaw.p50,
    p99: results.textViaRaw.p99,
    direct: results.textDirect.p50,
  },
  {
    path: 'warm text-stats via dispatcher (1 NATS hop)',
    p50: results.textViaDispatcher.p50,
    p99: results.textViaDispatcher.p99,
    direct: results.textDirect.p50,
  },
  {
    path: 'warm text-stats, call sent straight to the runner',
    p50: results.textOnRunner.p50,
    p99: results.textOnRunner.p99,
    direct: results.textDirect.p50,
  },
  {
    path: 'warm WAT probe, call sent straight to the runner',
    p50: results.probeOnRunner.p50,
    p99: results.probeOnRunner.p99,
    direct: results.probeDirect.p50,
  },
  {
    path: 'warm WAT probe via dispatcher (1 NATS hop)',
    p50: results.probeViaDispatcher.p50,
    p99: results.probeViaDispatcher.p99,
    direct: results.probeDirect.p50,
  },
  {
    path: 'warm WAT probe via tools.call',
    p50: results.probeViaTalon.p50,
    p99: results.probeViaTalon.p99,
    direct: results.probeDirect.p50,
  },
  {
    path: 'host http-request via tools.call',
    p50: results.httpViaTalon.p50,
    p99: results.httpViaTalon.p99,
    direct: results.httpDirect.p50,
  },
]);

await inProcess.close();
await nest.stop();
await rawChain.stop();
await Promise.all([talon.close(), workerConnection.close()]);
await runner.stop();
await orchestrator.stop();
await nats.stop();
await database.drop();
http.close();
rmSync(base, { recursive: true, force: true });
console.log(
  JSON.stringify({
    benchmark: 'wasm',
    database: process.env.BENCH_DATABASE === 'pglite' ? 'pglite data dir, audit journal' : 'postgres',
    calls: COUNT,
    warmUpCalls,
    loadAverageAtStart: LOAD_AT_START,
    coldStartMs: cold,
    warmExecuteMs: {
      textStatsViaDispatcher: {
        talon: results.textViaDispatcher,
        direct: results.textDirect,
        ratioP50: ratio(results.textViaDispatcher.p50, results.textDirect.p50),
      },
      textStatsViaNest: {
        nest: results.textViaNest,
        // The median of the rounds' own ratios (each round compares both at the same moment); pooled beside.
        talonVsNestP50: pairedRatio(perRound.textViaTalon, perRound.textViaNest),
        talonVsNestP99: pairedRatio(perRound.textViaTalon, perRound.textViaNest, 0.99),
        pooled: {
          p50: ratio(results.textViaTalon.p50, results.textViaNest.p50),
          p99: ratio(results.textViaTalon.p99, results.textViaNest.p99),
        },
      },
      // The floor: the same hops and the same component with nothing else (no Nest, no Talon).
      textStatsViaRaw: {
        raw: results.textViaRaw,
        talonVsRawP50: pairedRatio(perRound.textViaTalon, perRound.textViaRaw),
      },
      textStatsStraightToRunner: results.textOnRunner,
      watProbeStraightToRunner: results.probeOnRunner,
      watProbeViaDispatcher: results.probeViaDispatcher,
      textStats: {
        talon: results.textViaTalon,
        direct: results.textDirect,
        ratioP50: ratio(results.textViaTalon.p50, results.textDirect.p50),
        ratioP99: ratio(results.textViaTalon.p99, results.textDirect.p99),
      },
      watProbe: {
        talon: results.probeViaTalon,
        direct: results.probeDirect,
        ratioP50: ratio(results.probeViaTalon.p50, results.probeDirect.p50),
        ratioP99: ratio(results.probeViaTalon.p99, results.probeDirect.p99),
      },
    },
    hostHttpRequestMs: {
      talon: results.httpViaTalon,
      directFetch: results.httpDirect,
      ratioP50: ratio(results.httpViaTalon.p50, results.httpDirect.p50),
      ratioP99: ratio(results.httpViaTalon.p99, results.httpDirect.p99),
    },
    coldStartRatios: {
      emptyCache: ratio(cold.emptyCache.p50, cold.directEmptyCacheMs),
      warmCache: ratio(cold.warmCache.p50, cold.directWarmCacheMs),
      warmCacheVsFreshProcess: ratio(cold.warmCache.p50, cold.directFreshProcessWarmCache.p50),
    },
    targets: { warmExecuteP50Ms: 0.6, coldStartWarmCacheMs: 150 },
    meetsTargets: {
      warmExecuteApi: results.textViaTalon.p50 < 0.6,
      warmExecuteDispatcher: results.textViaDispatcher.p50 < 0.6,
      coldStartWarmCache: cold.warmCache.p50 < 150,
    },
  }),
);
