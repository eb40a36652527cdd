// The orchestrator's dispatcher, in-process, running `echo` through the full pipeline (validation,
// rate limit, NATS dispatch to a tool-worker, leak scan, sanitize, truncate, wrap), against raw NATS
// request/reply to a raw responder: the same single hop. Target: p50 ratio ≤ 1.5.
import { connect } from '@nats-io/transport-node';
import { join } from 'node:path';
import { createInProcessDispatcher } from './support/in-process-dispatcher.mjs';
import { REPO_ROOT, startScript, testing } from './support/processes.mjs';
import { printTable, summarize, timeSequential } from './support/stats.mjs';

const COUNT = Number(process.env.BENCH_COUNT ?? 3000);
const nats = await testing.startNatsTestServer();
const worker = await testing.startServiceProcess(
  'tool-worker',
  { NATS_URL: nats.url, LOG_LEVEL: 'warn' },
  { waitReady: false },
);
await worker.waitForLog(() => true).catch(() => undefined);
const responder = await startScript(join(REPO_ROOT, 'bench/support/raw-responder.mjs'), [
  nats.url,
  'bench.raw.echo',
]);
const talon = await createInProcessDispatcher(nats.url);
await talon.waitForInstances('echo', 1);
const raw = await connect({ servers: nats.url });

const rawPayload = new TextEncoder().encode(JSON.stringify({ tool: 'echo', params: { message: 'hello' } }));
const viaRaw = async () => {
  const reply = (await raw.request('bench.raw.echo', rawPayload, { timeout: 5000 })).json();
  if (!reply.ok) throw new Error('raw failed');
};
const viaDispatcher = async () => {
  await talon.dispatcher.call({ tool: 'echo', params: { message: 'hello' } });
};

const talonSamples = [];
const rawSamples = [];
for (let round = 0; round < 5; round++) {
  rawSamples.push(...(await timeSequential(viaRaw, COUNT / 5, round === 0 ? 300 : 50)));
  talonSamples.push(...(await timeSequential(viaDispatcher, COUNT / 5, round === 0 ? 300 : 50)));
}
const talonStats = summarize(talonSamples);
const rawStats = summarize(rawSamples);
printTable([
  { path: 'dispatcher → tool-worker echo (full pipeline)', ...talonStats },
  { path: 'raw request → raw responder', ...rawStats },
]);
await raw.close();
await talon.close();
responder.kill('SIGTERM');
await worker.kill();
await nats.stop();
console.log(
  JSON.stringify({
    benchmark: 'tool-dispatch',
    calls: COUNT,
    talon: talonStats,
    raw: rawStats,
    ratioP50: Math.round((talonStats.p50 / rawStats.p50) * 100) / 100,
    ratioP99: Math.round((talonStats.p99 / rawStats.p99) * 100) / 100,
    targetP50Ratio: 1.5,
  }),
);
