// Throughput of a tool that waits 20 ms (`echo` with delayMs 20) at concurrency 64 with 1, 2 and 3
// tool-worker processes, each bounded to 4 calls at once. Target: 3 workers ≥ 2.5× one worker, and no
// call lost or timed out.
import { createInProcessDispatcher } from './support/in-process-dispatcher.mjs';
import { testing } from './support/processes.mjs';
import { printTable } from './support/stats.mjs';

const CALLS = Number(process.env.BENCH_CALLS ?? 1200);
const CONCURRENCY = 64;
const nats = await testing.startNatsTestServer();
const talon = await createInProcessDispatcher(nats);
const workers = [];
const rows = [];

async function measure(workerCount) {
  while (workers.length < workerCount) {
    workers.push(
      await testing.startServiceProcess(
        'tool-worker',
        { NATS_URL: nats.url, LOG_LEVEL: 'warn', TOOL_WORKER_CONCURRENCY: '4' },
        { waitReady: false },
      ),
    );
  }
  await talon.waitForInstances('echo', workerCount);
  let next = 0;
  let ok = 0;
  const failures = {};
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CALLS) {
        next++;
        try {
          await talon.dispatcher.call({
            tool: 'echo',
            params: { message: 'x', delayMs: 20 },
            timeoutMs: 30000,
          });
          ok++;
        } catch (error) {
          failures[error.code ?? 'ERROR'] = (failures[error.code ?? 'ERROR'] ?? 0) + 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const row = {
    workers: workerCount,
    calls: CALLS,
    ok,
    failed: CALLS - ok,
    seconds: Math.round(seconds * 100) / 100,
    throughput: Math.round(ok / seconds),
    failures,
  };
  rows.push(row);
}

for (const count of [1, 2, 3]) await measure(count);
printTable(rows.map(({ failures, ...row }) => ({ ...row, failures: JSON.stringify(failures) })));
await talon.close();
await Promise.all(workers.map((worker) => worker.kill()));
await nats.stop();
const base = rows[0].throughput;
console.log(
  JSON.stringify({
    benchmark: 'tool-scaling',
    concurrency: CONCURRENCY,
    perWorkerConcurrency: 4,
    toolDelayMs: 20,
    throughput: Object.fromEntries(rows.map((row) => [`workers${row.workers}`, row.throughput])),
    speedup2: Math.round((rows[1].throughput / base) * 100) / 100,
    speedup3: Math.round((rows[2].throughput / base) * 100) / 100,
    lostOrTimedOut: rows.reduce((sum, row) => sum + row.failed, 0),
    targetSpeedup3: 2.5,
  }),
);
