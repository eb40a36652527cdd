// What the durable audit log costs a tool call: the orchestrator's dispatcher, in-process, running `echo`
// on a tool-worker with no audit (the baseline) and with the audit log three ways: on PostgreSQL, where the
// reply waits until the call's record is committed (group commit: records that arrive while a transaction
// runs share the next one); on PGlite with a data directory, committed the same way; and on PGlite with the
// audit journal (the embedded default), where the reply waits for one append to the journal and the chain
// takes the records in statements of many rows. Sequential latency and throughput at concurrency 32, same
// run, same worker. The CPU per call is this process's (dispatcher, audit writer, PGlite), with the
// deferred commits waited for; PostgreSQL's own CPU is elsewhere and not counted.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessDispatcher } from './support/in-process-dispatcher.mjs';
import { REPO_ROOT, testing } from './support/processes.mjs';
import { loadAtStart, printTable, summarize, timeSequential } from './support/stats.mjs';

const COUNT = Number(process.env.BENCH_COUNT ?? 1000);
const ROUNDS = 4;
const CONCURRENCY = 32;
const { AuditLog } = await import(join(REPO_ROOT, 'apps/orchestrator/dist/audit/audit-log.js'));
const { JournalAuditOutbox } = await import(
  join(REPO_ROOT, 'apps/orchestrator/dist/audit/journal-audit-outbox.js')
);
const { openDatabase } = await import(join(REPO_ROOT, 'libs/persistence/dist/index.js'));
const { JsonLogger } = await import(join(REPO_ROOT, 'libs/service-runtime/dist/index.js'));

const LOAD_AT_START = loadAtStart('audit');
const scratch = mkdtempSync(join(tmpdir(), 'talon-bench-audit-'));
const database = await testing.createTestDatabase('talon_bench_audit');
const postgres = await openDatabase({ kind: 'postgres', url: database.url });
const pgliteCommit = await openDatabase({ kind: 'pglite', dataDir: join(scratch, 'commit') });
const pgliteJournal = await openDatabase({ kind: 'pglite', dataDir: join(scratch, 'journal') });
const logger = new JsonLogger({ service: 'orchestrator', instanceId: 'bench' }, 'error');
const logs = {
  postgres: new AuditLog(postgres),
  pgliteCommit: new AuditLog(pgliteCommit),
  pgliteJournal: new AuditLog(pgliteJournal, {
    outbox: new JournalAuditOutbox(join(scratch, 'journal', 'talon-audit-journal'), logger),
  }),
};
for (const log of Object.values(logs)) await log.start();

const nats = await testing.startNatsTestServer();
const worker = await testing.startServiceProcess(
  'tool-worker',
  { NATS_URL: nats.url, LOG_LEVEL: 'warn' },
  { waitReady: false },
);
await worker.waitForLog(() => true).catch(() => undefined);
const sides = { baseline: await createInProcessDispatcher(nats) };
for (const [name, audit] of Object.entries(logs))
  sides[name] = await createInProcessDispatcher(nats, { audit });
for (const side of Object.values(sides)) await side.waitForInstances('echo', 1);

const call = (side) => () => side.dispatcher.call({ tool: 'echo', params: { message: 'hello' } });
const flush = (name) => logs[name]?.flush() ?? Promise.resolve();

/** Calls per second at `CONCURRENCY`, and this process's CPU µs per call, the deferred commits included. */
async function throughput(name, total) {
  const fn = call(sides[name]);
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < total) await fn();
    }),
  );
  const elapsed = performance.now() - started;
  await flush(name);
  const used = process.cpuUsage(cpu);
  return {
    perSecond: Math.round(total / (elapsed / 1000)),
    cpuUsPerCall: Math.round(((used.user + used.system) / total) * 10) / 10,
  };
}

/** Sequential calls, with this process's CPU µs per call (the deferred commits included). */
async function sequential(name, count, warmup) {
  await timeSequential(call(sides[name]), warmup, 0);
  await flush(name);
  const cpu = process.cpuUsage();
  const samples = await timeSequential(call(sides[name]), count, 0);
  await flush(name);
  const used = process.cpuUsage(cpu);
  return { samples, cpuUs: used.user + used.system };
}

const names = Object.keys(sides);
const samples = Object.fromEntries(names.map((name) => [name, []]));
const sequentialCpu = Object.fromEntries(names.map((name) => [name, 0]));
for (let round = 0; round < ROUNDS; round++) {
  for (const name of names.map((_, index) => names[(index + round) % names.length])) {
    const measured = await sequential(name, COUNT / ROUNDS, round === 0 ? 200 : 20);
    samples[name].push(...measured.samples);
    sequentialCpu[name] += measured.cpuUs;
  }
}
const rates = {};
for (const name of names) rates[name] = await throughput(name, COUNT * 2);

const labels = {
  baseline: 'dispatcher, no audit (baseline)',
  postgres: 'PostgreSQL, committed before the reply',
  pgliteCommit: 'PGlite data dir, committed before the reply',
  pgliteJournal: 'PGlite data dir, journal before the reply (default)',
};
const figures = Object.fromEntries(
  names.map((name) => [
    name,
    {
      ...summarize(samples[name]),
      sequentialCpuUsPerCall: Math.round((sequentialCpu[name] / COUNT) * 10) / 10,
      callsPerSecond: rates[name].perSecond,
      cpuUsPerCall: rates[name].cpuUsPerCall,
    },
  ]),
);
printTable(
  names.map((name) => ({
    path: labels[name],
    p50: figures[name].p50,
    p99: figures[name].p99,
    'seq cpu µs/call': figures[name].sequentialCpuUsPerCall,
    [`calls/s @${CONCURRENCY}`]: figures[name].callsPerSecond,
    [`cpu µs/call @${CONCURRENCY}`]: figures[name].cpuUsPerCall,
  })),
);
const rows = {};
for (const [name, log] of Object.entries(logs)) {
  await log.stop();
  rows[name] = (await log.verify()).ok ? 'chain verified' : 'CHAIN BROKEN';
}
for (const side of Object.values(sides)) await side.close();
await worker.kill();
await nats.stop();
await Promise.all([postgres.close(), pgliteCommit.close(), pgliteJournal.close()]);
await database.drop();
rmSync(scratch, { recursive: true, force: true });

const ratio = (a, b) => Math.round((a / b) * 100) / 100;
const against = (name) => ({
  addedP50Ms: Math.round((figures[name].p50 - figures.baseline.p50) * 1000) / 1000,
  ratioP50: ratio(figures[name].p50, figures.baseline.p50),
  throughputRatio: ratio(figures[name].callsPerSecond, figures.baseline.callsPerSecond),
  addedCpuUsPerCall: Math.round((figures[name].cpuUsPerCall - figures.baseline.cpuUsPerCall) * 10) / 10,
  addedSequentialCpuUsPerCall:
    Math.round((figures[name].sequentialCpuUsPerCall - figures.baseline.sequentialCpuUsPerCall) * 10) / 10,
});
console.log(
  JSON.stringify({
    benchmark: 'audit',
    loadAverageAtStart: LOAD_AT_START,
    loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100),
    ...figures,
    postgresVsBaseline: against('postgres'),
    pgliteCommitVsBaseline: against('pgliteCommit'),
    pgliteJournalVsBaseline: against('pgliteJournal'),
    journalVsCommitOnPglite: {
      p50: ratio(figures.pgliteJournal.p50, figures.pgliteCommit.p50),
      sequentialCpu: ratio(
        figures.pgliteJournal.sequentialCpuUsPerCall,
        figures.pgliteCommit.sequentialCpuUsPerCall,
      ),
      throughput: ratio(figures.pgliteJournal.callsPerSecond, figures.pgliteCommit.callsPerSecond),
      cpuAtConcurrency: ratio(figures.pgliteJournal.cpuUsPerCall, figures.pgliteCommit.cpuUsPerCall),
    },
    chains: rows,
  }),
);
