// Idle resident memory of an orchestrator on embedded PGlite (a data directory on disk, as `talon up` runs
// it: the first start, which creates the cluster, and a restart on it) against the same orchestrator on
// PostgreSQL, in one run: each started, then VmRSS read from /proc/<pid>/status IDLE_MS after `ready` and
// again once idle has settled (SETTLE_MS: V8's memory reducer has shrunk the heap grown at start; with the
// orchestrator's 64 MiB semi-space that comes 20–30 s into idleness, with V8's default about 14 s), with
// VmHWM. Target (issue 19): PGlite idle RSS < 300 MiB, settled; the early reading is printed beside it.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { testing } from './support/processes.mjs';
import { loadAtStart, printTable } from './support/stats.mjs';

const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 10_000);
const SETTLE_MS = Math.max(IDLE_MS, Number(process.env.BENCH_SETTLE_MS ?? 60_000));
const EARLY_COLUMN = `RSS MiB ${IDLE_MS / 1000} s after ready`;
const LOAD_AT_START = loadAtStart('memory');

/** VmRSS and VmHWM of a process, in MiB. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: Math.round(kib('VmRSS') / 1024), peakMiB: Math.round(kib('VmHWM') / 1024) };
}

async function idleOrchestrator(nats, database) {
  const orchestrator = await testing.startServiceProcess(
    'orchestrator',
    {
      NATS_URL: nats.url,
      ...database,
      TALON_HTTP_PORT: String(await testing.findFreePort()),
      TALON_GRPC_PORT: String(await testing.findFreePort()),
      LOG_LEVEL: 'info', // `ready` is an info line
    },
    { timeoutMs: 180_000 },
  );
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const early = memoryOf(orchestrator.child.pid);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS - IDLE_MS));
  const settled = memoryOf(orchestrator.child.pid);
  await orchestrator.kill();
  return { rssMiB: settled.rssMiB, earlyRssMiB: early.rssMiB, peakMiB: settled.peakMiB };
}

const nats = await testing.startNatsTestServer();
const dataDir = mkdtempSync(join(tmpdir(), 'talon-memory-'));
const postgres = await testing.createTestDatabase('talon_bench_memory');
let pglite;
let pgliteRestart;
let pg;
try {
  pglite = await idleOrchestrator(nats, { TALON_PGLITE_DIR: join(dataDir, 'pglite') });
  pgliteRestart = await idleOrchestrator(nats, { TALON_PGLITE_DIR: join(dataDir, 'pglite') });
  pg = await idleOrchestrator(nats, { DATABASE_URL: postgres.url });
} finally {
  await postgres.drop();
  await nats.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
printTable([
  {
    database: 'PGlite, first start (creates the cluster)',
    'settled idle RSS MiB': pglite.rssMiB,
    [EARLY_COLUMN]: pglite.earlyRssMiB,
    'peak RSS MiB': pglite.peakMiB,
  },
  {
    database: 'PGlite, restart',
    'settled idle RSS MiB': pgliteRestart.rssMiB,
    [EARLY_COLUMN]: pgliteRestart.earlyRssMiB,
    'peak RSS MiB': pgliteRestart.peakMiB,
  },
  {
    database: 'PostgreSQL',
    'settled idle RSS MiB': pg.rssMiB,
    [EARLY_COLUMN]: pg.earlyRssMiB,
    'peak RSS MiB': pg.peakMiB,
  },
]);
console.log(
  JSON.stringify({
    benchmark: 'memory',
    idleMs: IDLE_MS,
    settleMs: SETTLE_MS,
    orchestratorNodeOptions:
      testing.serviceNodeOptions('orchestrator', process.env.TALON_TEST_NODE_OPTIONS) ?? null,
    loadAverageAtStart: LOAD_AT_START,
    loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100),
    pglite,
    pgliteRestart,
    postgres: pg,
    ratioRss: Math.round((pglite.rssMiB / pg.rssMiB) * 100) / 100,
    targetPgliteRssMiB: 300,
    targetMet: Math.max(pglite.rssMiB, pgliteRestart.rssMiB) < 300,
    targetMetAtIdleMs: Math.max(pglite.earlyRssMiB, pgliteRestart.earlyRssMiB) < 300,
  }),
);
