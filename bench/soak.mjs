// Long runs: hundreds of thousands of calls through each kind of tool, to show that every call succeeds and that
// no service's memory keeps growing. An orchestrator (PGlite with a data directory, as `talon up` runs it), a
// tool-worker and a wasm-runner, called as an API client calls them (`tools.call`, concurrency 8):
//   echo             built-in tool on the tool-worker
//   text-stats       WebAssembly component (componentize-js) on the wasm-runner
//   everything_echo  MCP server over stdio, on the wasm-runner
// Each phase samples the resident memory of the services ten times; the figure is the growth from the first
// sample after warm-up (a tenth of the calls) to the end, against that sample: the baseline is the same
// process, warm. A componentize-js guest leaks 0.4–1 KB a call inside its linear memory, which the pool
// bounds by retiring the instance near its cap: the runner's `talon_wasm_worker_stops_total` shows it.
// Target: no failed call. Knobs: BENCH_SOAK_CALLS (per phase, default 200000), BENCH_SOAK_CONCURRENCY.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, testing } from './support/processes.mjs';
import { loadAtStart, printTable } from './support/stats.mjs';
import { connectTalonApi } from './support/talon-api.mjs';

const CALLS = Number(process.env.BENCH_SOAK_CALLS ?? 200_000);
const CONCURRENCY = Number(process.env.BENCH_SOAK_CONCURRENCY ?? 8);
const SAMPLES = 10;
const LOAD_AT_START = loadAtStart('soak');

const residentMiB = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024);
};

// The registry's text-stats entry points at the built component (the build skips it when nothing changed).
execFileSync(process.execPath, [join(REPO_ROOT, 'tools-src/build.mjs'), '--quiet'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
});
const base = mkdtempSync(join(tmpdir(), 'talon-bench-soak-'));
const nats = await testing.startNatsTestServer();
const metricsPort = await testing.findFreePort();
const [orchestrator, worker, runner] = await Promise.all([
  testing.startServiceProcess(
    'orchestrator',
    {
      NATS_URL: nats.url,
      TALON_PGLITE_DIR: join(base, 'pglite'),
      TALON_HTTP_PORT: String(await testing.findFreePort()),
      TALON_GRPC_PORT: String(await testing.findFreePort()),
    },
    { timeoutMs: 180_000 },
  ),
  testing.startServiceProcess('tool-worker', { NATS_URL: nats.url }, { timeoutMs: 180_000 }),
  testing.startServiceProcess(
    'wasm-runner',
    { NATS_URL: nats.url, TALON_STATE_DIR: join(base, 'state'), TALON_METRICS_PORT: String(metricsPort) },
    { timeoutMs: 180_000 },
  ),
]);
const services = { orchestrator, 'tool-worker': worker, 'wasm-runner': runner };
const talon = await connectTalonApi(nats);

/** Retries `attempt` until it resolves: services still joining the catalog answer UNKNOWN_TOOL or NO_RESPONDERS. */
const eventually = (what, attempt) =>
  testing.waitUntil(
    () =>
      attempt().then(
        () => true,
        () => false,
      ),
    30_000,
    what,
    100,
  );
await eventually('text-stats install', () => talon.api('tools.install', { name: 'text-stats' }, 120_000));

/** `talon_wasm_worker_stops_total` of the runner, by reason. */
async function workerStops() {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const stops = { recycled: 0, retired: 0 };
  for (const match of text.matchAll(/^talon_wasm_worker_stops_total\{([^}]*)\} (\S+)$/gm)) {
    const reason = /reason="([^"]+)"/.exec(match[1])?.[1];
    if (reason in stops) stops[reason] = Number(match[2]);
  }
  return stops;
}

const phases = [
  { tool: 'echo', params: { message: 'soak' }, serving: 'tool-worker' },
  {
    tool: 'text-stats',
    params: { text: 'the quick brown fox jumps over the lazy dog\nthe end' },
    serving: 'wasm-runner',
  },
  {
    tool: 'everything_echo',
    params: { message: 'soak' },
    serving: 'wasm-runner',
    // The runner starts an MCP server on its first call; its tools then join the catalog.
    before: () => talon.api('mcp.call', { tool: 'everything.echo', arguments: { message: 'warm' } }),
  },
];

const results = [];
for (const phase of phases) {
  const call = () =>
    talon.client.tools.call({ tool: phase.tool, params: phase.params }, { timeoutMs: 10_000 });
  if (phase.before) await eventually(`${phase.tool} server start`, phase.before);
  await eventually(`first ${phase.tool} call`, call);
  const stopsBefore = await workerStops();
  const samples = [];
  const failures = new Map();
  let started = 0;
  let failed = 0;
  const began = performance.now();
  const sample = () =>
    samples.push(
      Object.fromEntries(Object.entries(services).map(([name, s]) => [name, residentMiB(s.child.pid)])),
    );
  sample();
  const lane = async () => {
    while (started < CALLS) {
      const index = ++started;
      try {
        await call();
      } catch (error) {
        failed++;
        failures.set(error.code, (failures.get(error.code) ?? 0) + 1);
      }
      if (index % (CALLS / SAMPLES) === 0) sample();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const seconds = (performance.now() - began) / 1000;
  const stopsAfter = await workerStops();
  const warm = samples[1];
  const end = samples.at(-1);
  const growth = Object.fromEntries(Object.keys(services).map((name) => [name, end[name] - warm[name]]));
  results.push({
    tool: phase.tool,
    calls: CALLS,
    failed,
    failures: Object.fromEntries(failures),
    callsPerSecond: Math.round(CALLS / seconds),
    residentMiB: {
      warm,
      end,
      peak: Object.fromEntries(
        Object.keys(services).map((name) => [name, Math.max(...samples.map((s) => s[name]))]),
      ),
    },
    growthMiB: growth,
    servingGrowthMiBPer100kCalls: Math.round(
      ((end[phase.serving] - warm[phase.serving]) / (CALLS * 0.9)) * 100_000,
    ),
    workerStops: {
      recycled: stopsAfter.recycled - stopsBefore.recycled,
      retired: stopsAfter.retired - stopsBefore.retired,
    },
  });
}

printTable(
  results.map((result) => ({
    tool: result.tool,
    calls: result.calls,
    failed: result.failed,
    'calls/s': result.callsPerSecond,
    'orchestrator MiB warm → end': `${result.residentMiB.warm.orchestrator} → ${result.residentMiB.end.orchestrator}`,
    'tool-worker MiB': `${result.residentMiB.warm['tool-worker']} → ${result.residentMiB.end['tool-worker']}`,
    'wasm-runner MiB': `${result.residentMiB.warm['wasm-runner']} → ${result.residentMiB.end['wasm-runner']} (peak ${result.residentMiB.peak['wasm-runner']})`,
    'workers retired / recycled': `${result.workerStops.retired} / ${result.workerStops.recycled}`,
  })),
);

await talon.close();
await Promise.all(Object.values(services).map((service) => service.stop()));
await nats.stop();
rmSync(base, { recursive: true, force: true });

const failedCalls = results.reduce((sum, result) => sum + result.failed, 0);
console.log(
  JSON.stringify({
    benchmark: 'soak',
    loadAverageAtStart: LOAD_AT_START,
    concurrency: CONCURRENCY,
    phases: results,
    failedCalls,
    targets: { failedCalls: 0 },
    targetMet: failedCalls === 0,
  }),
);
