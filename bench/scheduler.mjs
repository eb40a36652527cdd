// Many routines on 1 s intervals across 2 orchestrators for a bounded time (defaults: 200 routines, 10 s;
// BENCH_ROUTINES, BENCH_SECONDS). Reports fire lag (scheduled instant → job started) p50/p99, duplicate
// fires (must be 0), missed slots (must be 0) and orchestrator CPU (scheduler + job runner, utime+stime
// from /proc) per 1,000 fires. Baseline in the same run: the lag of a plain Node timer aimed at each whole
// second in this process (what any scheduler on this loaded machine pays at least).
// Targets: lag p99 < 1 s, 0 duplicates, 0 missed.
import pg from 'pg';
import { testing } from './support/processes.mjs';
import { processCpuMs } from './support/process-cpu.mjs';
import { printTable, summarize } from './support/stats.mjs';
import { connectTalonApi } from './support/talon-api.mjs';

const ROUTINES = Number(process.env.BENCH_ROUTINES ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TICKS_PER_SECOND = Number(process.env.BENCH_TICK_MS ?? 250);

const nats = await testing.startNatsTestServer();
const database = await testing.createTestDatabase('talon_bench');
const env = async (instance) => ({
  NATS_URL: nats.url,
  DATABASE_URL: database.url,
  TALON_INSTANCE_ID: instance,
  TALON_HTTP_PORT: String(await testing.findFreePort()),
  TALON_GRPC_PORT: String(await testing.findFreePort()),
  TALON_SECRETS_KEY: Buffer.alloc(32, 1).toString('hex'),
  TALON_SCHEDULER_TICK_MS: String(TICKS_PER_SECOND),
  TALON_JOB_CONCURRENCY: '64',
});
const first = await testing.startServiceProcess('orchestrator', await env('bench-a'));
const second = await testing.startServiceProcess('orchestrator', await env('bench-b'));
const talon = await connectTalonApi(nats);
const { api } = talon;

const ids = [];
for (let i = 0; i < ROUTINES; i++) {
  const { routine } = await api('routines.create', {
    name: `bench-${i}`,
    trigger: {
      kind: 'interval',
      everyMs: 1000,
      startAt: new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000).toISOString(),
    },
    action: { kind: 'reminder', text: `r${i}` },
    guardrails: { maxConcurrent: 5 },
  });
  ids.push(routine.id);
}
const pids = [first.child.pid, second.child.pid];
const cpuBefore = pids.map((pid) => processCpuMs(pid));
const timerLagMs = [];
const until = Date.now() + SECONDS * 1000 + 2000;
while (Date.now() < until) {
  const target = Math.ceil((Date.now() + 1) / 1000) * 1000;
  await new Promise((resolve) => setTimeout(resolve, target - Date.now()));
  timerLagMs.push(Date.now() - target);
}
const pool = new pg.Pool({ connectionString: database.url });
const idList = JSON.stringify(ids);
await pool.query(
  `UPDATE routine SET paused = true WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid)`,
  [idList],
);
await new Promise((resolve) => setTimeout(resolve, 1500));
const cpuAfter = pids.map((pid) => processCpuMs(pid));

const { rows: fires } = await pool.query(
  `SELECT f.routine_id, f.slot_at, f.claimed_by, f.claimed_at, f.outcome, j.status, j.started_at, j.finished_at FROM routine_fire f LEFT JOIN job j ON j.id = f.job_id`,
);
const { rows: dup } = await pool.query(
  `SELECT count(*)::int AS n FROM (SELECT routine_id, slot_at FROM routine_fire GROUP BY 1, 2 HAVING count(*) > 1) d`,
);
const byRoutine = new Map();
for (const fire of fires) {
  const slots = byRoutine.get(fire.routine_id) ?? [];
  slots.push(fire.slot_at.getTime());
  byRoutine.set(fire.routine_id, slots);
}
let missed = 0;
for (const id of ids) {
  const slots = (byRoutine.get(id) ?? []).sort((a, b) => a - b);
  if (slots.length === 0) continue;
  missed += (slots.at(-1) - slots[0]) / 1000 + 1 - slots.length;
}
const lag = summarize(fires.filter((fire) => fire.started_at).map((fire) => fire.started_at - fire.slot_at));
const timer = summarize(timerLagMs);
const claim = summarize(fires.map((fire) => fire.claimed_at - fire.slot_at));
const run = summarize(
  fires
    .filter((fire) => fire.started_at && fire.finished_at)
    .map((fire) => fire.finished_at - fire.started_at),
);
const outcomes = {};
for (const fire of fires) {
  const key = fire.outcome === 'skipped' ? 'skipped' : (fire.status ?? fire.outcome);
  outcomes[key] = (outcomes[key] ?? 0) + 1;
}
const cpu = cpuAfter.reduce((sum, value, i) => sum + value - cpuBefore[i], 0);
const claimants = {};
for (const fire of fires) claimants[fire.claimed_by] = (claimants[fire.claimed_by] ?? 0) + 1;
printTable([
  { measure: `fire lag, slot → job started (${fires.length} fires)`, ...lag },
  { measure: 'claim lag, slot → fire claimed', ...claim },
  { measure: 'job run, started → finished', ...run },
  { measure: 'baseline: Node timer lag at each second', ...timer },
]);
console.log(`fires by outcome (job state) ${JSON.stringify(outcomes)}`);
console.log(`claimed by ${JSON.stringify(claimants)}; duplicates ${dup[0].n}; missed ${missed}`);
await pool.end();
await talon.close();
await Promise.all([first.kill(), second.kill()]);
await Promise.all([nats.stop(), database.drop()]);
console.log(
  JSON.stringify({
    benchmark: 'scheduler',
    routines: ROUTINES,
    seconds: SECONDS,
    orchestrators: 2,
    fires: fires.length,
    lagP50Ms: lag.p50,
    lagP99Ms: lag.p99,
    claimLagP50Ms: claim.p50,
    claimLagP99Ms: claim.p99,
    started: lag.n,
    outcomes,
    runP50Ms: run.p50,
    runP99Ms: run.p99,
    baselineTimerLagP50Ms: timer.p50,
    baselineTimerLagP99Ms: timer.p99,
    duplicates: dup[0].n,
    missed,
    orchestratorCpuMsPer1000Fires: Math.round((cpu / Math.max(1, fires.length)) * 1000),
    claimants,
    targets: { lagP99Ms: 1000, duplicates: 0, missed: 0 },
  }),
);
