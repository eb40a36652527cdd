// What the durable audit log costs a tool call: the orchestrator's dispatcher, in-process, running `echo`
// on a tool-worker with no audit (the baseline) and with the audit log on PostgreSQL, where the reply waits
// until the call's record is committed (group commit: records that arrive while a transaction runs share
// the next one). Sequential latency and throughput at concurrency 32, same run, same worker.
import { join } from 'node:path';
import { createInProcessDispatcher } from './support/in-process-dispatcher.mjs';
import { REPO_ROOT, testing } from './support/processes.mjs';
import { printTable, summarize, timeSequential } from './support/stats.mjs';

const COUNT = Number(process.env.BENCH_COUNT ?? 1000);
const CONCURRENCY = 32;
const { AuditLog } = await import(join(REPO_ROOT, 'apps/orchestrator/dist/audit/audit-log.js'));
const { openDatabase } = await import(join(REPO_ROOT, 'libs/persistence/dist/index.js'));

const database = await testing.createTestDatabase('talon_bench_audit');
const opened = await openDatabase({ kind: 'postgres', url: database.url });
const nats = await testing.startNatsTestServer();
const worker = await testing.startServiceProcess(
  'tool-worker',
  { NATS_URL: nats.url, LOG_LEVEL: 'warn' },
  { waitReady: false },
);
await worker.waitForLog(() => true).catch(() => undefined);
const plain = await createInProcessDispatcher(nats);
const audited = await createInProcessDispatcher(nats, { audit: new AuditLog(opened) });
await plain.waitForInstances('echo', 1);
await audited.waitForInstances('echo', 1);

const call = (talon) => () => talon.dispatcher.call({ tool: 'echo', params: { message: 'hello' } });
/**
 * Calls per second at `CONCURRENCY`, and this process's CPU microseconds per call: the dispatcher and the
 * audit writer (Prisma, hashing, the batch insert) run here, the worker and PostgreSQL elsewhere.
 */
async function throughput(fn, total) {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < total) await fn();
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    perSecond: Math.round(total / ((performance.now() - started) / 1000)),
    cpuUsPerCall: Math.round(((used.user + used.system) / total) * 10) / 10,
  };
}

const plainSamples = [];
const auditedSamples = [];
for (let round = 0; round < 4; round++) {
  plainSamples.push(...(await timeSequential(call(plain), COUNT / 4, round === 0 ? 200 : 20)));
  auditedSamples.push(...(await timeSequential(call(audited), COUNT / 4, round === 0 ? 200 : 20)));
}
const plainRate = await throughput(call(plain), COUNT * 2);
const auditedRate = await throughput(call(audited), COUNT * 2);
const plainStats = summarize(plainSamples);
const auditedStats = summarize(auditedSamples);
const rows = Number((await opened.prisma.auditEvent.count()).toString());
printTable([
  {
    path: 'dispatcher, audit committed before reply',
    ...auditedStats,
    [`calls/s @${CONCURRENCY}`]: auditedRate.perSecond,
    'cpu µs/call': auditedRate.cpuUsPerCall,
  },
  {
    path: 'dispatcher, no audit (baseline)',
    ...plainStats,
    [`calls/s @${CONCURRENCY}`]: plainRate.perSecond,
    'cpu µs/call': plainRate.cpuUsPerCall,
  },
]);
await plain.close();
await audited.close();
await worker.kill();
await nats.stop();
await opened.close();
await database.drop();
const ratio = (a, b) => Math.round((a / b) * 100) / 100;
console.log(
  JSON.stringify({
    benchmark: 'audit',
    audited: {
      ...auditedStats,
      callsPerSecond: auditedRate.perSecond,
      cpuUsPerCall: auditedRate.cpuUsPerCall,
    },
    baseline: { ...plainStats, callsPerSecond: plainRate.perSecond, cpuUsPerCall: plainRate.cpuUsPerCall },
    addedP50Ms: Math.round((auditedStats.p50 - plainStats.p50) * 1000) / 1000,
    ratioP50: ratio(auditedStats.p50, plainStats.p50),
    throughputRatio: ratio(auditedRate.perSecond, plainRate.perSecond),
    addedCpuUsPerCall: Math.round((auditedRate.cpuUsPerCall - plainRate.cpuUsPerCall) * 10) / 10,
    ratioCpuPerCall: ratio(auditedRate.cpuUsPerCall, plainRate.cpuUsPerCall),
    auditRows: rows,
  }),
);
