// A no-op request through the orchestrator's NATS API into a tool-worker and back (`system.ping`),
// against a raw chain with the same hops: raw client → raw relay → raw responder. Target: p50 ratio ≤ 1.5.
import { connect } from '@nats-io/transport-node';
import { join } from 'node:path';
import { REPO_ROOT, startScript, testing } from './support/processes.mjs';
import { printTable, summarize, timeSequential } from './support/stats.mjs';

const COUNT = Number(process.env.BENCH_COUNT ?? 3000);
const nats = await testing.startNatsTestServer();
const env = {
  NATS_URL: nats.url,
  TALON_HTTP_PORT: String(await testing.findFreePort()),
  TALON_GRPC_PORT: String(await testing.findFreePort()),
  LOG_LEVEL: 'warn',
};
const orchestrator = await testing.startServiceProcess('orchestrator', { ...env, LOG_LEVEL: 'info' });
const worker = await testing.startServiceProcess('tool-worker', { ...env, LOG_LEVEL: 'info' });
const responder = await startScript(join(REPO_ROOT, 'bench/support/raw-responder.mjs'), [
  nats.url,
  'bench.raw.responder',
]);
const relay = await startScript(join(REPO_ROOT, 'bench/support/raw-relay.mjs'), [
  nats.url,
  'bench.raw.relay',
  'bench.raw.responder',
]);
const nc = await connect({ servers: nats.url });

const talonPayload = new TextEncoder().encode('{"service":"tool-worker"}');
const rawPayload = new TextEncoder().encode('{}');
const talon = async () => {
  const reply = (await nc.request('talon.api.v1.system.ping', talonPayload, { timeout: 5000 })).json();
  if (!reply.ok) throw new Error(reply.error.message);
};
const raw = async () => {
  const reply = (await nc.request('bench.raw.relay', rawPayload, { timeout: 5000 })).json();
  if (!reply.ok) throw new Error(reply.error.message);
};

// Alternate rounds so that machine noise hits both sides alike.
const talonSamples = [];
const rawSamples = [];
for (let round = 0; round < 5; round++) {
  rawSamples.push(...(await timeSequential(raw, COUNT / 5, round === 0 ? 300 : 50)));
  talonSamples.push(...(await timeSequential(talon, COUNT / 5, round === 0 ? 300 : 50)));
}
const talonStats = summarize(talonSamples);
const rawStats = summarize(rawSamples);
const result = {
  benchmark: 'nats-overhead',
  requests: COUNT,
  talon: talonStats,
  raw: rawStats,
  ratioP50: Math.round((talonStats.p50 / rawStats.p50) * 100) / 100,
  ratioP99: Math.round((talonStats.p99 / rawStats.p99) * 100) / 100,
  targetP50Ratio: 1.5,
};
printTable([
  { path: 'talon: client → orchestrator → tool-worker', ...talonStats },
  { path: 'raw: client → relay → responder', ...rawStats },
]);
await nc.close();
for (const child of [responder, relay]) child.kill('SIGTERM');
await Promise.all([orchestrator.kill(), worker.kill()]);
await nats.stop();
console.log(JSON.stringify(result));
