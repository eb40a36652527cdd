// The raw nats.js two-hop chain of the benchmarks (client → raw-relay.mjs → raw-responder.mjs) on a
// private nats-server with the orchestrator's credentials: the floor under any service with the same hops.
import { join } from 'node:path';
import { rawCredentials, REPO_ROOT, startScript } from './processes.mjs';

const RELAY = 'talon.bench.raw.relay';
const RESPONDER = 'talon.bench.raw.responder';

/**
 * Starts the responder (canned echo, or `role` with `path`: see worker-handler.mjs) and the relay, and
 * connects a client. `call(data)` sends `data` as JSON and resolves with the reply's JSON.
 */
export async function startRawChain(nats, role, path) {
  const credentials = rawCredentials(nats);
  const responderArgs = role === undefined ? [] : [role, path];
  const script = (name) => join(REPO_ROOT, 'bench/support', name);
  const responder = await startScript(
    script('raw-responder.mjs'),
    [nats.url, RESPONDER, ...responderArgs],
    credentials,
  );
  const relay = await startScript(script('raw-relay.mjs'), [nats.url, RELAY, RESPONDER], credentials);
  const client = await nats.connect('orchestrator');
  const encoder = new TextEncoder();
  return {
    pids: { relay: relay.pid, responder: responder.pid },
    /** One request with `data` encoded once per call, as a client of the other sides encodes its own. */
    call: async (data, timeout = 10_000) =>
      (await client.request(RELAY, encoder.encode(JSON.stringify(data)), { timeout })).json(),
    /** A request with bytes encoded before the timing starts. */
    callBytes: async (bytes, timeout = 10_000) => (await client.request(RELAY, bytes, { timeout })).json(),
    async stop() {
      await client.close();
      for (const child of [relay, responder]) child.kill('SIGTERM');
    },
  };
}
