// `tools.call` (echo) through the NATS API → orchestrator → tool-worker, with tracing off (no OTEL_*
// variables, as today) and on (100% sampling, every span exported to a loopback OTLP/HTTP collector run by
// this script), in the same run with alternating rounds. Reports p50/p99, throughput at concurrency 16 and
// server CPU per call (orchestrator + tool-worker, from /proc/<pid>/stat). Target: on ≤ 1.15× off at p50.
import { createServer } from 'node:http';
import { printTable, summarize, timeSequential } from './support/stats.mjs';
import { testing } from './support/processes.mjs';
import { processCpuMs } from './support/process-cpu.mjs';

const COUNT = Number(process.env.BENCH_COUNT ?? 2000);
const ROUNDS = 5;
const CONCURRENCY = 16;

/** A collector on loopback that accepts every OTLP/HTTP export and counts what it received. */
async function startCollector() {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk) => (bytes += chunk.length));
    request.on('end', () => {
      exports++;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stats: () => ({ exports, bytes }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function startSide(tracing) {
  const [nats, database] = await Promise.all([testing.startNatsTestServer(), testing.createTestDatabase()]);
  const env = {
    NATS_URL: nats.url,
    DATABASE_URL: database.url,
    TALON_HTTP_PORT: String(await testing.findFreePort()),
    TALON_GRPC_PORT: String(await testing.findFreePort()),
    ...tracing,
  };
  const orchestrator = await testing.startServiceProcess('orchestrator', env);
  const worker = await testing.startServiceProcess('tool-worker', env);
  const api = await testing.connectTalonApi(nats.url);
  const payload = { tool: 'echo', params: { message: 'hello' } };
  const call = async () => {
    const reply = await api.call('tools.call', payload, 5000);
    if (!reply.ok) throw new Error(reply.error.message);
  };
  // The worker's announcement reaches the catalog shortly after both are ready.
  await testing.waitUntil(
    async () => (await api.call('tools.call', payload, 5000)).ok,
    20_000,
    'echo callable',
  );
  const pids = [orchestrator.child.pid, worker.child.pid];
  return {
    call,
    cpuMs: () => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0),
    async stop() {
      await api.close();
      await Promise.all([orchestrator.kill(), worker.kill()]);
      await Promise.all([nats.stop(), database.drop()]);
    },
  };
}

/** Calls per second with `CONCURRENCY` callers sharing `count` calls. */
async function throughput(call, count) {
  let left = count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await call();
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const collector = await startCollector();
const off = await startSide({});
const on = await startSide({
  OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
  OTEL_TRACES_SAMPLER: 'always_on',
  OTEL_BSP_SCHEDULE_DELAY: '500',
});
const sides = { off, on };
const samples = { off: [], on: [] };
const cpu = { off: 0, on: 0 };
const rates = { off: [], on: [] };
for (let round = 0; round < ROUNDS; round++) {
  const warm = round === 0 ? 300 : 50;
  for (const name of round % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
    const side = sides[name];
    const before = side.cpuMs();
    samples[name].push(...(await timeSequential(side.call, COUNT / ROUNDS, warm)));
    cpu[name] += side.cpuMs() - before;
    rates[name].push(await throughput(side.call, COUNT / ROUNDS));
  }
}
// CPU is read around the sequential part: its timed calls plus the warm-up calls.
const SEQUENTIAL_CALLS = COUNT + 300 + (ROUNDS - 1) * 50;
const stats = Object.fromEntries(
  ['off', 'on'].map((name) => [
    name,
    {
      ...summarize(samples[name]),
      callsPerSecond: Math.round(rates[name].reduce((a, b) => a + b, 0) / ROUNDS),
      cpuMsPerCall: Math.round((cpu[name] / SEQUENTIAL_CALLS) * 1000) / 1000,
    },
  ]),
);
printTable([
  { path: 'tools.call echo, tracing off (no OTEL_* set)', ...stats.off },
  { path: 'tools.call echo, tracing on (100% sampled, loopback OTLP collector)', ...stats.on },
]);
await Promise.all([off.stop(), on.stop()]);
const exported = collector.stats();
await collector.close();
const ratio = (a, b) => Math.round((a / b) * 100) / 100;
console.log(
  JSON.stringify({
    benchmark: 'tracing',
    calls: COUNT,
    off: stats.off,
    on: stats.on,
    collector: exported,
    ratioP50: ratio(stats.on.p50, stats.off.p50),
    ratioThroughput: ratio(stats.on.callsPerSecond, stats.off.callsPerSecond),
    ratioCpuPerCall: ratio(stats.on.cpuMsPerCall, stats.off.cpuMsPerCall),
    targetP50Ratio: 1.15,
  }),
);
