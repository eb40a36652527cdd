// The orchestrator's dispatcher, in-process, running `echo` through the full pipeline (validation,
// rate limit, NATS dispatch to a tool-worker, leak scan, sanitize, truncate, wrap), against raw NATS
// request/reply to a raw responder: the same single hop. Both run on a NATS server with Talon's
// authorization (per-service users and permissions). Beside them: the same pair on a server without
// authorization (the front door's cost on this path), the same dispatcher without acknowledgements and
// failover probes (the cost of failover), and the same dispatcher against a canned worker (nats.js, one
// fixed answer), which splits the overhead into the dispatcher's share and the worker's.
// Targets: p50 ratio ≤ 1.2 (issue 19; it was 1.5); authorization adds ≤ 3%; failover within noise.
import { join } from 'node:path';
import { createInProcessDispatcher } from './support/in-process-dispatcher.mjs';
import { rawCredentials, REPO_ROOT, startScript, testing } from './support/processes.mjs';
import { loadAtStart, pairedRatio, printTable, summarize, timeInterleavedRounds } from './support/stats.mjs';

const { NATS_PERMISSIONS, SUBJECTS } = await import(join(REPO_ROOT, 'libs/contracts/dist/index.js'));

const COUNT = Number(process.env.BENCH_COUNT ?? 3000);
const LOAD_AT_START = loadAtStart('tool-dispatch');
const ROUNDS = 10;

/** A NATS server with a tool-worker, a raw responder and an in-process dispatcher. */
async function startSide(withoutAuthorization) {
  const nats = await testing.startNatsTestServer({ withoutAuthorization });
  const worker = await testing.startServiceProcess(
    'tool-worker',
    { NATS_URL: nats.url, LOG_LEVEL: 'warn' },
    { waitReady: false },
  );
  await worker.waitForLog(() => true).catch(() => undefined);
  const responder = await startScript(
    join(REPO_ROOT, 'bench/support/raw-responder.mjs'),
    [nats.url, 'talon.bench.raw.echo'],
    rawCredentials(nats),
  );
  const talon = await createInProcessDispatcher(nats);
  await talon.waitForInstances('echo', 1);
  // The same dispatcher without acknowledgements and failover probes (plain request/reply, as before).
  const plain = await createInProcessDispatcher(nats, { failover: false });
  await plain.waitForInstances('echo', 1);
  const raw = await nats.connect('orchestrator');
  const rawPayload = new TextEncoder().encode(JSON.stringify({ tool: 'echo', params: { message: 'hello' } }));
  return {
    viaRaw: async () => {
      const reply = (await raw.request('talon.bench.raw.echo', rawPayload, { timeout: 5000 })).json();
      if (!reply.ok) throw new Error('raw failed');
    },
    viaDispatcher: async () => {
      await talon.dispatcher.call({ tool: 'echo', params: { message: 'hello' } });
    },
    viaPlainDispatcher: async () => {
      await plain.dispatcher.call({ tool: 'echo', params: { message: 'hello' } });
    },
    /** The tool-worker's announcement, for a canned worker to announce the same tools. */
    announcement: async () =>
      (await raw.request(SUBJECTS.toolCatalogRequest, new Uint8Array(0), { timeout: 5000 })).json().data,
    async stop() {
      await raw.close();
      await talon.close();
      await plain.close();
      responder.kill('SIGTERM');
      await worker.kill();
      await nats.stop();
    },
  };
}

/**
 * The dispatcher against a worker reduced to nats.js (a fixed answer, the tool-worker's NATS user) on a
 * server of its own: this side over raw is the dispatcher's share of the overhead, the full side over this
 * one the worker's share.
 */
async function startCannedSide(announcement) {
  const nats = await testing.startNatsTestServer({});
  const worker = await startScript(
    join(REPO_ROOT, 'bench/support/canned-tool-worker.mjs'),
    [nats.url, JSON.stringify(announcement)],
    {
      NATS_USER: 'tool-worker',
      NATS_PASSWORD: nats.credentials['tool-worker'],
      NATS_INBOX_PREFIX: NATS_PERMISSIONS['tool-worker'].inboxPrefix,
    },
  );
  const talon = await createInProcessDispatcher(nats);
  await talon.waitForInstances('echo', 1);
  return {
    viaDispatcher: async () => {
      await talon.dispatcher.call({ tool: 'echo', params: { message: 'hello' } });
    },
    async stop() {
      await talon.close();
      worker.kill('SIGTERM');
      await nats.stop();
    },
  };
}

const secured = await startSide(false);
const open = await startSide(true);
const canned = await startCannedSide(await secured.announcement());
// Interleaved rounds in rotating order, so that machine noise hits every side alike.
const { perRound: rounds, warmUpCalls } = await timeInterleavedRounds(
  {
    raw: secured.viaRaw,
    talon: secured.viaDispatcher,
    talonOpen: open.viaDispatcher,
    plain: secured.viaPlainDispatcher,
    canned: canned.viaDispatcher,
  },
  { rounds: ROUNDS, count: COUNT / ROUNDS },
);
const samples = Object.fromEntries(Object.entries(rounds).map(([side, list]) => [side, list.flat()]));
const pairedP50 = pairedRatio(rounds.talon, rounds.raw);
const talonStats = summarize(samples.talon);
const rawStats = summarize(samples.raw);
const openStats = summarize(samples.talonOpen);
const plainStats = summarize(samples.plain);
const cannedStats = summarize(samples.canned);
printTable([
  { path: 'dispatcher → tool-worker echo (full pipeline, authorized NATS)', ...talonStats },
  { path: 'the same on NATS without authorization', ...openStats },
  { path: 'the same without acks/failover probes (plain request)', ...plainStats },
  { path: 'dispatcher → canned worker (nats.js, fixed answer)', ...cannedStats },
  { path: 'raw request → raw responder (authorized NATS)', ...rawStats },
]);
await Promise.all([secured.stop(), open.stop(), canned.stop()]);
const ratio = (a, b) => Math.round((a / b) * 100) / 100;
console.log(
  JSON.stringify({
    benchmark: 'tool-dispatch',
    warmUpCalls,
    loadAverageAtStart: LOAD_AT_START,
    calls: COUNT,
    talon: talonStats,
    talonWithoutAuthorization: openStats,
    raw: rawStats,
    ratioP50: ratio(talonStats.p50, rawStats.p50),
    ratioP99: ratio(talonStats.p99, rawStats.p99),
    // The median of the rounds' own ratios: what the target is judged on (see `pairedRatio`).
    pairedRatioP50: pairedP50,
    authorizationRatioP50: ratio(talonStats.p50, openStats.p50),
    pairedAuthorizationRatioP50: pairedRatio(rounds.talon, rounds.talonOpen),
    talonWithoutFailover: plainStats,
    failoverRatioP50: ratio(talonStats.p50, plainStats.p50),
    failoverRatioMean: ratio(talonStats.mean, plainStats.mean),
    // Where the overhead is: the dispatcher's share (against a canned worker) and the worker's.
    talonToCannedWorker: cannedStats,
    pairedDispatcherShareP50: pairedRatio(rounds.canned, rounds.raw),
    pairedWorkerShareP50: pairedRatio(rounds.talon, rounds.canned),
    targetP50Ratio: 1.2,
    targetAuthorizationRatioP50: 1.03,
    targetMet: pairedP50 <= 1.2,
  }),
);
