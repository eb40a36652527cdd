// `@talon/client` against a raw nats.js request of the same payload to the same orchestrator: both send
// `tools.call` echo to `talon.api.v1.tools.call` with the `talon-token` header on one connection, so the
// difference is what the client adds (options, envelope check, reply validation against the contract,
// typed errors). Sequential p50 and throughput at concurrency 64, rounds interleaved, plus this process's
// CPU per call (the client runs here). Target: the client adds ≤ 5% (p50 ratio ≤ 1.05).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, testing } from './support/processes.mjs';
import { printTable, summarize, timeSequential } from './support/stats.mjs';

const { createTalonClient } = await import(join(REPO_ROOT, 'libs/client/dist/index.js'));
const COUNT = Number(process.env.BENCH_COUNT ?? 3000);
const ROUNDS = 5;
const CONCURRENCY = 64;

const nats = await testing.startNatsTestServer();
const database = await testing.createTestDatabase();
const stateDir = await mkdtemp(join(tmpdir(), 'talon-bench-client-'));
const base = { NATS_URL: nats.url, TALON_STATE_DIR: stateDir };
const worker = await testing.startServiceProcess(
  'tool-worker',
  { ...base, LOG_LEVEL: 'warn' },
  { waitReady: false },
);
const orchestrator = await testing.startServiceProcess('orchestrator', {
  ...base,
  DATABASE_URL: database.url,
  TALON_HTTP_PORT: String(await testing.findFreePort()),
  TALON_GRPC_PORT: String(await testing.findFreePort()),
});
const connection = await nats.connect('api');
const client = createTalonClient({ nats: connection, token: nats.bootstrapToken });
for (let tries = 0; ; tries++) {
  const { tools } = await client.tools.list();
  if (tools.some((tool) => tool.definition.name === 'echo')) break;
  if (tries > 150) throw new Error('echo never appeared in the catalog');
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const request = { tool: 'echo', params: { message: 'hello' } };
const payload = new TextEncoder().encode(JSON.stringify(request));
const headers = testing.natsTokenHeaders(nats.bootstrapToken);
const viaRaw = async () => {
  const reply = (
    await connection.request('talon.api.v1.tools.call', payload, { timeout: 5000, headers })
  ).json();
  if (!reply.ok) throw new Error(`raw failed: ${JSON.stringify(reply.error)}`);
};
const viaClient = async () => {
  await client.tools.call(request, { timeoutMs: 5000 });
};

/** Calls per second with `CONCURRENCY` calls in flight, and this process's CPU microseconds per call. */
async function throughput(fn, count) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < count) await fn();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { perSecond: count / seconds, cpuUsPerCall: (used.user + used.system) / count };
}

const samples = { client: [], raw: [] };
const rates = { client: [], raw: [] };
for (let round = 0; round < ROUNDS; round++) {
  const warm = round === 0 ? 300 : 50;
  samples.raw.push(...(await timeSequential(viaRaw, COUNT / ROUNDS, warm)));
  samples.client.push(...(await timeSequential(viaClient, COUNT / ROUNDS, warm)));
  rates.raw.push(await throughput(viaRaw, COUNT / ROUNDS));
  rates.client.push(await throughput(viaClient, COUNT / ROUNDS));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round1 = (value) => Math.round(value * 10) / 10;
const side = (name) => ({
  ...summarize(samples[name]),
  perSecond: Math.round(median(rates[name].map((rate) => rate.perSecond))),
  cpuUsPerCall: round1(median(rates[name].map((rate) => rate.cpuUsPerCall))),
});
const clientStats = side('client');
const rawStats = side('raw');
printTable([
  { path: 'client.tools.call (@talon/client over NATS)', ...clientStats },
  { path: 'raw nc.request, same payload and subject', ...rawStats },
]);
await client.close();
await connection.close();
await Promise.all([orchestrator.kill(), worker.kill()]);
await Promise.all([nats.stop(), database.drop()]);
await rm(stateDir, { recursive: true, force: true });
const ratio = (a, b) => Math.round((a / b) * 1000) / 1000;
console.log(
  JSON.stringify({
    benchmark: 'client',
    calls: COUNT,
    client: clientStats,
    raw: rawStats,
    ratioP50: ratio(clientStats.p50, rawStats.p50),
    ratioThroughput: ratio(rawStats.perSecond, clientStats.perSecond),
    ratioCpuPerCall: ratio(clientStats.cpuUsPerCall, rawStats.cpuUsPerCall),
    targetP50Ratio: 1.05,
  }),
);
