// Baseline worker: plain @nats-io/transport-node in a queue group. Without a role it replies a canned
// `{ok:true,data:{…}}`; with one (worker-handler.mjs: mcp-worker, wasm-worker) it runs the job on the
// message's JSON and replies `{ok:true,data:<answer>}` or `{ok:false,error:{…}}`.
// Usage: node raw-responder.mjs <nats url> <subject> [role path]; credentials from NATS_USER / NATS_PASSWORD.
import { connect } from '@nats-io/transport-node';
import { workerHandler } from './worker-handler.mjs';

const [url, subject, role, path] = process.argv.slice(2);
const credentials = process.env.NATS_PASSWORD
  ? {
      user: process.env.NATS_USER,
      pass: process.env.NATS_PASSWORD,
      inboxPrefix: process.env.NATS_INBOX_PREFIX,
    }
  : {};
const nc = await connect({ servers: url, ...credentials });
const canned = new TextEncoder().encode('{"ok":true,"data":{"service":"raw","instanceId":"raw"}}');
const encoder = new TextEncoder();
const handle = role === undefined ? undefined : await workerHandler(role, path);
const answer = (message) => {
  Promise.resolve()
    .then(() => handle(message.json()))
    .then(
      (data) => JSON.stringify({ ok: true, data }),
      (error) => JSON.stringify({ ok: false, error: { code: 'INTERNAL', message: String(error) } }),
    )
    .then((text) => message.respond(encoder.encode(text)));
};
nc.subscribe(subject, {
  queue: 'raw-responders',
  callback: (_error, message) => (handle ? answer(message) : message.respond(canned)),
});
await nc.flush();
process.stdout.write('ready\n');
// The server may already be gone when the benchmark stops: exit either way.
process.on('SIGTERM', () =>
  nc
    .drain()
    .catch(() => undefined)
    .then(() => process.exit(0)),
);
