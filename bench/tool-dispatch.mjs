// The orchestrator's dispatcher, in-process, running `echo` through the full pipeline (validation,
// rate limit, NATS dispatch to a tool-worker, leak scan, sanitize, truncate, wrap), against raw NATS
// request/reply to a raw responder: the same single hop. Both run on a NATS server with Talon's
// authorization (per-service users and permissions); the same pair on a server without authorization
// gives the cost of the front door on this path, and the same dispatcher without acknowledgements and
// failover probes the cost of failover. Targets: p50 ratio ≤ 1.2 (issue 19; it was 1.5); authorization
// adds ≤ 3%; failover
// within noise.
import { join } from 'node:path';
import { createInProcessDispatcher } from './support/in-process-dispatcher.mjs';
import { rawCredentials, REPO_ROOT, startScript, testing } from './support/processes.mjs';
import { pairedRatio, printTable, summarize, timeInterleavedRounds } from './support/stats.mjs';

const COUNT = Number(process.env.BENCH_COUNT ?? 3000);
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

const secured = await startSide(false);
const open = await startSide(true);
// Interleaved rounds in rotating order, so that machine noise hits every side alike.
const rounds = await timeInterleavedRounds(
  {
    raw: secured.viaRaw,
    talon: secured.viaDispatcher,
    talonOpen: open.viaDispatcher,
    plain: secured.viaPlainDispatcher,
  },
  { rounds: ROUNDS, count: COUNT / ROUNDS },
);
const samples = Object.fromEntries(Object.entries(rounds).map(([side, list]) => [side, list.flat()]));
const pairedP50 = pairedRatio(rounds.talon, rounds.raw);
const talonStats = summarize(samples.talon);
const rawStats = summarize(samples.raw);
const openStats = summarize(samples.talonOpen);
const plainStats = summarize(samples.plain);
printTable([
  { path: 'dispatcher → tool-worker echo (full pipeline, authorized NATS)', ...talonStats },
  { path: 'the same on NATS without authorization', ...openStats },
  { path: 'the same without acks/failover probes (plain request)', ...plainStats },
  { path: 'raw request → raw responder (authorized NATS)', ...rawStats },
]);
await Promise.all([secured.stop(), open.stop()]);
const ratio = (a, b) => Math.round((a / b) * 100) / 100;
console.log(
  JSON.stringify({
    benchmark: 'tool-dispatch',
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
    targetP50Ratio: 1.2,
    targetAuthorizationRatioP50: 1.03,
    targetMet: pairedP50 <= 1.2,
  }),
);
