// Failover: two tool-workers hold slow calls; one is SIGKILLed. Measured is the time from the kill to
// the moment each call the victim held is settled elsewhere: an idempotent echo finished on the other
// worker (minus the echo's own hold, which the retry has to run again), a non-idempotent http POST
// answered WORKER_LOST. The baseline in the same run is the previous mechanism (plain request/reply,
// no acknowledgement or probe), where a lost call waits out its timeout. Target: max under 1.5 s.
import { createServer } from 'node:http';
import { createInProcessDispatcher } from './support/in-process-dispatcher.mjs';
import { testing } from './support/processes.mjs';
import { printTable, summarize } from './support/stats.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const ECHO_CALLS = 12;
const POST_CALLS = 4;
const HOLD_MS = 1_500;
/** The baseline's tool timeout: what a lost call waits without failover (kept short to keep the run short). */
const BASELINE_TIMEOUT_MS = 4_000;

const target = createServer((_request, response) => {
  setTimeout(() => response.end('{"ok":true}'), HOLD_MS).unref();
});
await new Promise((resolve) => target.listen(0, '127.0.0.1', resolve));
const targetPort = target.address().port;
const nats = await testing.startNatsTestServer();
const workerEnv = {
  NATS_URL: nats.url,
  LOG_LEVEL: 'info',
  TOOL_WORKER_CONCURRENCY: '64',
  TALON_SSRF_ALLOWLIST: `127.0.0.1/32@${targetPort}`,
};
let started = 0;
/** A worker with a known instance id, so the probe can tell which process holds calls. */
const startWorker = async () => {
  const instanceId = `bench-worker-${++started}`;
  const process = await testing.startServiceProcess(
    'tool-worker',
    { ...workerEnv, TALON_INSTANCE_ID: instanceId },
    { timeoutMs: 90_000 },
  );
  return Object.assign(process, { instanceId });
};
const workers = [await startWorker(), await startWorker()];

/** Calls of `callIds` the instance holds now, asked the way the orchestrator's failover probe asks. */
async function heldBy(instanceId, callIds) {
  try {
    const reply = await withFailover.connection.request(
      `talon.tools.v1.held.${instanceId}`,
      JSON.stringify({ callIds }),
      { timeout: 2_000 },
    );
    return reply.json().data?.held ?? [];
  } catch {
    return [];
  }
}
const withFailover = await createInProcessDispatcher(nats);
const plain = await createInProcessDispatcher(nats, { failover: false });

const cpuOf = async (pid) => {
  const { readFile } = await import('node:fs/promises');
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, clock ticks (100/s) → ms
};

/** One round: start the calls, kill the worker that holds some, return the settle times after the kill. */
async function round(dispatcher, timeoutMs) {
  // Both catalogs list exactly the live workers (the last victim expired, its replacement announced).
  const live = workers
    .map((worker) => worker.instanceId)
    .sort()
    .join(',');
  for (const side of [withFailover, plain]) {
    const until = Date.now() + 90_000;
    while (side.catalog.instancesOf('echo').sort().join(',') !== live) {
      if (Date.now() > until) throw new Error(`catalog never showed exactly ${live}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const ids = Array.from({ length: ECHO_CALLS + POST_CALLS }, (_, i) => `round-${Date.now()}-${i}`);
  const echo = Array.from({ length: ECHO_CALLS }, (_, i) =>
    dispatcher
      .call({ tool: 'echo', params: { message: `m${i}`, delayMs: HOLD_MS }, timeoutMs, callId: ids[i] })
      .then((reply) => ({ ok: true, attempts: reply.attempts, at: Date.now() }))
      .catch((error) => ({ ok: false, code: error.code, at: Date.now() })),
  );
  const posts = Array.from({ length: POST_CALLS }, (_, i) =>
    dispatcher
      .call({
        tool: 'http',
        params: { url: `http://127.0.0.1:${targetPort}/p${i}`, method: 'POST', body: 'x' },
        timeoutMs,
        callId: ids[ECHO_CALLS + i],
      })
      .then(() => ({ ok: true, at: Date.now() }))
      .catch((error) => ({ ok: false, code: error.code, at: Date.now() })),
  );
  // Kill the worker holding the most calls, once the calls have reached the workers.
  const deadline = Date.now() + HOLD_MS - 500;
  let victim;
  while (Date.now() < deadline) {
    const holding = await Promise.all(
      workers.map(async (worker) => (await heldBy(worker.instanceId, ids)).length),
    );
    if (holding.reduce((sum, n) => sum + n, 0) === ids.length) {
      victim = workers[holding[0] >= holding[1] ? 0 : 1];
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  victim ??= workers[0];
  workers.splice(workers.indexOf(victim), 1);
  const killedAt = Date.now();
  await victim.kill();
  const echoes = await Promise.all(echo);
  const postResults = await Promise.all(posts);
  const settled = [
    ...echoes.filter((result) => result.attempts === 2).map((result) => result.at - killedAt - HOLD_MS),
    ...echoes.filter((result) => !result.ok).map((result) => result.at - killedAt),
    ...postResults.filter((result) => !result.ok).map((result) => result.at - killedAt),
  ];
  const lostEcho = echoes.filter((result) => !result.ok).length;
  workers.push(await startWorker());
  return { settled, lostEcho, codes: postResults.filter((r) => !r.ok).map((r) => r.code) };
}

const failoverMs = [];
const baselineMs = [];
let lostEcho = 0;
let baselineLostEcho = 0;
const codes = new Set();
const cpuBefore = await cpuOf(process.pid);
for (let i = 0; i < ROUNDS; i++) {
  const measured = await round(withFailover.dispatcher, 15_000);
  failoverMs.push(...measured.settled);
  lostEcho += measured.lostEcho;
  measured.codes.forEach((code) => codes.add(code));
}
const cpuAfter = await cpuOf(process.pid);
for (let i = 0; i < Math.max(1, Math.floor(ROUNDS / 2)); i++) {
  const measured = await round(plain.dispatcher, BASELINE_TIMEOUT_MS);
  baselineMs.push(...measured.settled);
  baselineLostEcho += measured.lostEcho;
}

await withFailover.close();
await plain.close();
await Promise.all(workers.map((worker) => worker.kill()));
await nats.stop();
target.close();

const stats = summarize(failoverMs.length ? failoverMs : [NaN]);
const max = Math.max(...failoverMs);
const baseline = summarize(baselineMs.length ? baselineMs : [NaN]);
const ratio = (a, b) => Math.round((a / b) * 100) / 100;
printTable([
  { path: 'ack + probe failover (kill → settled elsewhere)', n: stats.n, p50: stats.p50, max, lostEcho },
  {
    path: `previous: plain request (waits the ${BASELINE_TIMEOUT_MS} ms timeout)`,
    n: baseline.n,
    p50: baseline.p50,
    max: Math.max(...baselineMs),
    lostEcho: baselineLostEcho,
  },
]);
console.log(
  JSON.stringify({
    benchmark: 'failover',
    rounds: ROUNDS,
    callsPerRound: ECHO_CALLS + POST_CALLS,
    failover: { ...stats, max },
    lostIdempotent: lostEcho,
    nonIdempotentCodes: [...codes],
    baseline: { ...baseline, max: Math.max(...baselineMs), timeoutMs: BASELINE_TIMEOUT_MS },
    ratioP50: ratio(stats.p50, baseline.p50),
    callerCpuMsPerCall:
      Math.round(((cpuAfter - cpuBefore) / (ROUNDS * (ECHO_CALLS + POST_CALLS))) * 100) / 100,
    targetMaxMs: 1500,
  }),
);
