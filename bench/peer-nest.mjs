// Talon against what a user would write instead, `echo` through two NATS hops on one private nats-server
// with authorization, in one run: Talon `tools.call` (client → orchestrator → tool-worker, API token checked
// per call, full pipeline; and once more with `policy: "agent"` as an agent calls it, with an agent-scope
// token in a session of its own), the stock NestJS service (ClientProxy →
// gateway microservice → worker microservice, @MessagePattern over Transport.NATS, no validation) and a raw
// nats.js chain (client → relay → responder). Rounds (5) are interleaved in an order rotated each round;
// figures are medians over rounds: sequential p50/p99, calls/s at concurrency 64 for a fixed time, and
// server CPU time per 1,000 calls (utime + stime from /proc/<pid>/stat of each side's server processes);
// ratios to NestJS are the medians of the rounds' own ratios (the pooled ratio beside). Targets (issue 19): Talon c64
// ≥ 1.0× Nest, p50 ≤ 1.1×, p99 ≤ 1.5×, CPU per call ≤ 1.3×. Talon runs twice: on embedded PGlite as
// `talon up` runs it (a data directory on disk, so each record is made durable in the audit journal before
// the reply; on the private nats-server's side above) and on PostgreSQL (as compose deploys it; on a second
// private nats-server so the two orchestrators do not share a queue group; PostgreSQL's own CPU is not
// counted), and on PostgreSQL once more with the audit outbox (TALON_AUDIT_OUTBOX=jetstream, a third
// nats-server). nats-server's CPU is not in "server CPU" (the outbox adds to it); it is reported beside it
// per side (sides run one at a time, so the server's CPU meanwhile is that side's; the idle stacks on the
// same server add their heartbeats).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { processCpuMs } from './support/process-cpu.mjs';
import { testing } from './support/processes.mjs';
import { startRawChain } from './support/raw-chain.mjs';
import { startStockNest } from './support/stock-nest.mjs';
import {
  loadAtStart,
  percentile,
  printTable,
  throughputFor,
  timeSequential,
  warmUntilSteady,
} from './support/stats.mjs';

const SEQUENTIAL = Number(process.env.BENCH_COUNT ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = 64;
const THROUGHPUT_MS = Number(process.env.BENCH_THROUGHPUT_MS ?? 3000);

const LOAD_AT_START = loadAtStart('peer-nest');

/** CPU milliseconds (user + system) used so far by each of the processes `pids` (role → pid). */
function cpuMsByRole(pids) {
  return Object.fromEntries(Object.entries(pids).map(([role, pid]) => [role, processCpuMs(pid)]));
}

const nats = await testing.startNatsTestServer();
const pgliteDir = mkdtempSync(join(tmpdir(), 'talon-bench-peer-nest-'));
const env = {
  NATS_URL: nats.url,
  TALON_PGLITE_DIR: join(pgliteDir, 'pglite'),
  TALON_HTTP_PORT: String(await testing.findFreePort()),
  TALON_GRPC_PORT: String(await testing.findFreePort()),
  LOG_LEVEL: 'warn',
};
const orchestrator = await testing.startServiceProcess(
  'orchestrator',
  { ...env, LOG_LEVEL: 'info' },
  { timeoutMs: 180_000 },
);
const worker = await testing.startServiceProcess(
  'tool-worker',
  { ...env, LOG_LEVEL: 'info' },
  { timeoutMs: 180_000 },
);
const api = await testing.connectTalonApi(nats.url); // sends the bootstrap operator token on every call

// The same Talon on PostgreSQL, behind a nats-server of its own.
const natsPg = await testing.startNatsTestServer();
const database = await testing.createTestDatabase('talon_bench_peer_nest');
const envPg = {
  ...env,
  NATS_URL: natsPg.url,
  TALON_PGLITE_DIR: '',
  DATABASE_URL: database.url,
  TALON_HTTP_PORT: String(await testing.findFreePort()),
  TALON_GRPC_PORT: String(await testing.findFreePort()),
};
const [orchestratorPg, workerPg] = await Promise.all([
  testing.startServiceProcess('orchestrator', { ...envPg, LOG_LEVEL: 'info' }, { timeoutMs: 180_000 }),
  testing.startServiceProcess('tool-worker', { ...envPg, LOG_LEVEL: 'info' }, { timeoutMs: 180_000 }),
]);
const apiPg = await testing.connectTalonApi(natsPg.url);

// The same on PostgreSQL with the audit outbox (TALON_AUDIT_OUTBOX=jetstream), behind a third nats-server.
const natsOutbox = await testing.startNatsTestServer();
const databaseOutbox = await testing.createTestDatabase('talon_bench_peer_nest_outbox');
const envOutbox = {
  ...envPg,
  NATS_URL: natsOutbox.url,
  DATABASE_URL: databaseOutbox.url,
  TALON_AUDIT_OUTBOX: 'jetstream',
  TALON_HTTP_PORT: String(await testing.findFreePort()),
  TALON_GRPC_PORT: String(await testing.findFreePort()),
};
const [orchestratorOutbox, workerOutbox] = await Promise.all([
  testing.startServiceProcess('orchestrator', { ...envOutbox, LOG_LEVEL: 'info' }, { timeoutMs: 180_000 }),
  testing.startServiceProcess('tool-worker', { ...envOutbox, LOG_LEVEL: 'info' }, { timeoutMs: 180_000 }),
]);
const apiOutbox = await testing.connectTalonApi(natsOutbox.url);
await testing.waitUntil(
  async () => (await apiOutbox.call('tools.call', { tool: 'echo', params: { message: 'x' } })).ok,
  30_000,
  'echo in the catalog (outbox side)',
);
await testing.waitUntil(
  async () => (await apiPg.call('tools.call', { tool: 'echo', params: { message: 'x' } })).ok,
  30_000,
  'echo in the catalog (PostgreSQL side)',
);
// An agent's own token (scope `agent`: it may use only the sessions it created) and its session.
const agentToken = (await api.ok('tokens.create', { name: 'peer-nest-agent', scope: 'agent' })).token;
const agentApi = await testing.connectTalonApi(nats.url, { token: agentToken });
const session = await agentApi.ok('sessions.create', { title: 'peer-nest' });
await testing.waitUntil(
  async () => (await api.call('tools.call', { tool: 'echo', params: { message: 'x' } })).ok,
  30_000,
  'echo in the catalog',
);

const nest = await startStockNest(nats);
const rawChain = await startRawChain(nats);
const rawPayload = new TextEncoder().encode(JSON.stringify({ message: 'hello' }));

const sides = {
  talon: {
    pids: { orchestrator: orchestrator.child.pid, worker: worker.child.pid },
    natsPid: nats.pid,
    call: async () => {
      const reply = await api.call('tools.call', { tool: 'echo', params: { message: 'hello' } }, 10_000);
      if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
    },
  },
  talonPostgres: {
    pids: { orchestrator: orchestratorPg.child.pid, worker: workerPg.child.pid },
    natsPid: natsPg.pid,
    call: async () => {
      const reply = await apiPg.call('tools.call', { tool: 'echo', params: { message: 'hello' } }, 10_000);
      if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
    },
  },
  talonPostgresOutbox: {
    pids: { orchestrator: orchestratorOutbox.child.pid, worker: workerOutbox.child.pid },
    natsPid: natsOutbox.pid,
    call: async () => {
      const reply = await apiOutbox.call(
        'tools.call',
        { tool: 'echo', params: { message: 'hello' } },
        10_000,
      );
      if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
    },
  },
  talonAgent: {
    pids: { orchestrator: orchestrator.child.pid, worker: worker.child.pid },
    natsPid: nats.pid,
    call: async () => {
      const reply = await agentApi.call(
        'tools.call',
        { tool: 'echo', params: { message: 'hello' }, policy: 'agent', sessionId: session.id },
        10_000,
      );
      if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
    },
  },
  nest: {
    pids: nest.pids,
    natsPid: nats.pid,
    call: async () => {
      const reply = await nest.call({ message: 'hello' });
      if (reply?.message !== 'hello') throw new Error('nest echo failed');
    },
  },
  raw: {
    pids: rawChain.pids,
    natsPid: nats.pid,
    call: async () => {
      const reply = await rawChain.callBytes(rawPayload);
      if (reply.ok === false) throw new Error('raw echo failed');
    },
  },
};

/** Calls per second with `CONCURRENCY` callers for `THROUGHPUT_MS`, and the calls made. */
const throughput = (call) => throughputFor(call, { concurrency: CONCURRENCY, ms: THROUGHPUT_MS });

// Every side warmed until its sequential p50 stops falling, then once under load: V8 compiles a service's
// hot path over thousands of calls, Talon's longer path later than the stock one.
const warmUpCalls = {};
for (const [name, side] of Object.entries(sides)) {
  warmUpCalls[name] = await warmUntilSteady(side.call);
  warmUpCalls[name] += (await throughput(side.call)).calls;
}

const perRound = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
const names = Object.keys(sides);
for (let round = 0; round < ROUNDS; round++) {
  // The order rotates each round, so no side always follows the same one (this machine's speed drifts).
  for (const name of names.map((_, index) => names[(index + round) % names.length])) {
    const side = sides[name];
    const warm = 50;
    for (let i = 0; i < warm; i++) await side.call();
    const cpuBefore = cpuMsByRole(side.pids);
    const natsBefore = processCpuMs(side.natsPid);
    const samples = await timeSequential(side.call, SEQUENTIAL, 0);
    const loaded = await throughput(side.call);
    const cpuAfter = cpuMsByRole(side.pids);
    const natsCpu = processCpuMs(side.natsPid) - natsBefore;
    const calls = SEQUENTIAL + loaded.calls;
    // Which process the CPU went to: Talon's worker beside NestJS's worker, its orchestrator beside the gateway.
    const cpuPer1000ByProcess = Object.fromEntries(
      Object.keys(side.pids).map((role) => [role, ((cpuAfter[role] - cpuBefore[role]) / calls) * 1000]),
    );
    perRound[name].push({
      p50: percentile(samples, 0.5),
      p99: percentile(samples, 0.99),
      perSecond: loaded.perSecond,
      cpuPer1000: Object.values(cpuPer1000ByProcess).reduce((sum, ms) => sum + ms, 0),
      cpuPer1000ByProcess,
      natsCpuPer1000: (natsCpu / calls) * 1000,
    });
  }
}

const median = (values) => percentile(values, 0.5);
const round3 = (value) => Math.round(value * 1000) / 1000;
const figures = Object.fromEntries(
  Object.entries(perRound).map(([name, rounds]) => [
    name,
    {
      p50: round3(median(rounds.map((r) => r.p50))),
      p99: round3(median(rounds.map((r) => r.p99))),
      c64PerSecond: Math.round(median(rounds.map((r) => r.perSecond))),
      cpuMsPer1000: Math.round(median(rounds.map((r) => r.cpuPer1000))),
      natsServerCpuMsPer1000: Math.round(median(rounds.map((r) => r.natsCpuPer1000))),
      cpuMsPer1000ByProcess: Object.fromEntries(
        Object.keys(rounds[0].cpuPer1000ByProcess).map((role) => [
          role,
          Math.round(median(rounds.map((r) => r.cpuPer1000ByProcess[role]))),
        ]),
      ),
    },
  ]),
);
const labels = {
  talon:
    'talon tools.call: client → orchestrator → tool-worker (token, full pipeline; PGlite on disk, audit journal)',
  talonPostgres: 'talon tools.call, the same on PostgreSQL (its CPU not counted)',
  talonPostgresOutbox: 'talon tools.call on PostgreSQL, audit via the JetStream outbox',
  talonAgent: 'talon tools.call policy "agent", agent token (session owner and policy too)',
  nest: 'stock NestJS: ClientProxy → gateway → worker (@MessagePattern, NATS)',
  raw: 'raw nats.js: client → relay → responder',
};
printTable(
  Object.entries(figures).map(([name, figure]) => ({
    side: labels[name],
    'p50 ms': figure.p50,
    'p99 ms': figure.p99,
    'c64 calls/s': figure.c64PerSecond,
    'server CPU ms/1000': figure.cpuMsPer1000,
    'by process': Object.entries(figure.cpuMsPer1000ByProcess)
      .map(([role, ms]) => `${role} ${ms}`)
      .join(', '),
    'nats-server CPU ms/1000': figure.natsServerCpuMsPer1000,
  })),
);

await nest.stop();
await rawChain.stop();
await api.close();
await agentApi.close();
await apiPg.close();
await apiOutbox.close();
await Promise.all([orchestratorPg.kill(), workerPg.kill(), orchestratorOutbox.kill(), workerOutbox.kill()]);
await Promise.all([natsPg.stop(), database.drop(), natsOutbox.stop(), databaseOutbox.drop()]);
await Promise.all([orchestrator.kill(), worker.kill()]);
await nats.stop();
rmSync(pgliteDir, { recursive: true, force: true });

const ratio = (a, b) => Math.round((a / b) * 100) / 100;
/**
 * Each figure's ratio to NestJS's as the median of the rounds' own ratios (sides measured minutes apart in
 * one round compare better than the medians of rounds that happened to be slow); the ratio of the medians
 * above is printed beside it as `pooled`.
 */
const pairedAgainstNest = (side, key) =>
  ratio(median(perRound[side].map((round, index) => round[key] / perRound.nest[index][key])), 1);
const against = (side) => ({
  c64: pairedAgainstNest(side, 'perSecond'),
  p50: pairedAgainstNest(side, 'p50'),
  p99: pairedAgainstNest(side, 'p99'),
  cpuPerCall: pairedAgainstNest(side, 'cpuPer1000'),
  pooled: {
    c64: ratio(figures[side].c64PerSecond, figures.nest.c64PerSecond),
    p50: ratio(figures[side].p50, figures.nest.p50),
    p99: ratio(figures[side].p99, figures.nest.p99),
    cpuPerCall: ratio(figures[side].cpuMsPer1000, figures.nest.cpuMsPer1000),
  },
});
const talonVsNest = against('talon');
console.log(
  JSON.stringify({
    benchmark: 'peer-nest',
    warmUpCalls,
    loadAverageAtStart: LOAD_AT_START,
    loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100),
    rounds: ROUNDS,
    sequentialPerRound: SEQUENTIAL,
    concurrency: CONCURRENCY,
    throughputMs: THROUGHPUT_MS,
    stages:
      'talon: API token, schema validation, rate limit, NATS dispatch, leak scan, sanitize, wrap, audit (journal on PGlite, commit on PostgreSQL, JetStream outbox)',
    // Each side's Node flags: Talon's orchestrator starts with its own (serviceNodeOptions).
    nodeOptions: {
      orchestrator: testing.serviceNodeOptions('orchestrator', process.env.TALON_TEST_NODE_OPTIONS) ?? null,
      nest: process.env.BENCH_NEST_NODE_OPTIONS ?? null,
    },
    ...figures,
    talonVsNest,
    talonPostgresVsNest: against('talonPostgres'),
    talonPostgresOutboxVsNest: against('talonPostgresOutbox'),
    talonAgentVsNest: against('talonAgent'),
    rawVsNest: against('raw'),
    targets: { c64: 1.0, p50: 1.1, p99: 1.5, cpuPerCall: 1.3 },
    targetsMet: {
      c64: talonVsNest.c64 >= 1.0,
      p50: talonVsNest.p50 <= 1.1,
      p99: talonVsNest.p99 <= 1.5,
      cpuPerCall: talonVsNest.cpuPerCall <= 1.3,
    },
  }),
);
