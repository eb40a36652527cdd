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
const plain = await createInProcessDispatcher(nats.url);
const audited = await createInProcessDispatcher(nats.url, { audit: new AuditLog(opened.prisma) });
await plain.waitForInstances('echo', 1);
await audited.waitForInstances('echo', 1);

const call = (talon) => () => talon.dispatcher.call({ tool: 'echo', params: { message: 'hello' } });
async function throughput(fn, total) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < total) await fn();
    }),
  );
  return Math.round(total / ((performance.now() - started) / 1000));
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
    [`calls/s @${CONCURRENCY}`]: auditedRate,
  },
  { path: 'dispatcher, no audit (baseline)', ...plainStats, [`calls/s @${CONCURRENCY}`]: plainRate },
]);
await plain.close();
await audited.close();
await worker.kill();
await nats.stop();
await opened.close();
await database.drop();
console.log(
  JSON.stringify({
    benchmark: 'audit',
    audited: { ...auditedStats, callsPerSecond: auditedRate },
    baseline: { ...plainStats, callsPerSecond: plainRate },
    addedP50Ms: Math.round((auditedStats.p50 - plainStats.p50) * 1000) / 1000,
    throughputRatio: Math.round((auditedRate / plainRate) * 100) / 100,
    auditRows: rows,
  }),
);
