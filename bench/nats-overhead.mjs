// A no-op request through the orchestrator's NATS API into a tool-worker and back (`system.ping`),
// against a raw chain with the same hops: raw client → raw relay → raw responder. Everything runs with
// the front door on (NATS authorization, a token checked per call); the same Talon pair with
// TALON_AUTH=off on a NATS server without authorization, in the same run, gives the front door's cost.
// Targets: p50 ratio ≤ 1.2 against raw (issue 19; it was 1.5); authentication adds ≤ 3% at p50.
import { testing } from './support/processes.mjs';
import { startRawChain } from './support/raw-chain.mjs';
import { loadAtStart, pairedRatio, printTable, summarize, timeInterleavedRounds } from './support/stats.mjs';

const COUNT = Number(process.env.BENCH_COUNT ?? 3000);
const LOAD_AT_START = loadAtStart('nats-overhead');
const ROUNDS = 10;

async function startSide(withoutAuthorization) {
  const nats = await testing.startNatsTestServer({ withoutAuthorization });
  const env = {
    NATS_URL: nats.url,
    // Each side its own throwaway database (PGlite allows one process per directory).
    TALON_PGLITE_DIR: 'memory://',
    TALON_HTTP_PORT: String(await testing.findFreePort()),
    TALON_GRPC_PORT: String(await testing.findFreePort()),
    LOG_LEVEL: 'info',
  };
  const orchestrator = await testing.startServiceProcess('orchestrator', env);
  const worker = await testing.startServiceProcess('tool-worker', env);
  const api = await testing.connectTalonApi(nats.url);
  const payload = { service: 'tool-worker' };
  const rawChain = withoutAuthorization ? undefined : await startRawChain(nats);
  const rawPayload = new TextEncoder().encode('{}');
  return {
    talon: async () => {
      const reply = await api.call('system.ping', payload, 5000);
      if (!reply.ok) throw new Error(reply.error.message);
    },
    raw: async () => {
      const reply = await rawChain.callBytes(rawPayload, 5000);
      if (!reply.ok) throw new Error(reply.error.message);
    },
    async stop() {
      await api.close();
      await rawChain?.stop();
      await Promise.all([orchestrator.kill(), worker.kill()]);
      await nats.stop();
    },
  };
}

const secured = await startSide(false);
const open = await startSide(true);
// Interleaved rounds in rotating order, so that machine noise hits every side alike.
const { perRound: rounds, warmUpCalls } = await timeInterleavedRounds(
  { raw: secured.raw, talon: secured.talon, open: open.talon },
  { rounds: ROUNDS, count: COUNT / ROUNDS },
);
const samples = Object.fromEntries(Object.entries(rounds).map(([side, list]) => [side, list.flat()]));
const pairedP50 = pairedRatio(rounds.talon, rounds.raw);
const talonStats = summarize(samples.talon);
const rawStats = summarize(samples.raw);
const openStats = summarize(samples.open);
const ratio = (a, b) => Math.round((a / b) * 100) / 100;
printTable([
  { path: 'talon: client → orchestrator → tool-worker (token + NATS authorization)', ...talonStats },
  { path: 'talon with TALON_AUTH=off on NATS without authorization', ...openStats },
  { path: 'raw: client → relay → responder', ...rawStats },
]);
await Promise.all([secured.stop(), open.stop()]);
console.log(
  JSON.stringify({
    benchmark: 'nats-overhead',
    warmUpCalls,
    loadAverageAtStart: LOAD_AT_START,
    requests: COUNT,
    talon: talonStats,
    talonWithoutAuth: openStats,
    raw: rawStats,
    ratioP50: ratio(talonStats.p50, rawStats.p50),
    ratioP99: ratio(talonStats.p99, rawStats.p99),
    // The median of the rounds' own ratios: what the target is judged on (see `pairedRatio`).
    pairedRatioP50: pairedP50,
    authRatioP50: ratio(talonStats.p50, openStats.p50),
    pairedAuthRatioP50: pairedRatio(rounds.talon, rounds.open),
    targetP50Ratio: 1.2,
    targetAuthRatioP50: 1.03,
    targetMet: pairedP50 <= 1.2,
  }),
);
