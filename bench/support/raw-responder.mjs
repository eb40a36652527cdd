// Baseline worker: plain @nats-io/transport-node, replies `{ok:true,data:{}}` in a queue group.
// Connects as NATS_USER / NATS_PASSWORD when set (the benchmarks' servers run with authorization).
import { connect } from '@nats-io/transport-node';

const [url, subject] = process.argv.slice(2);
const credentials = process.env.NATS_PASSWORD
  ? {
      user: process.env.NATS_USER,
      pass: process.env.NATS_PASSWORD,
      inboxPrefix: process.env.NATS_INBOX_PREFIX,
    }
  : {};
const nc = await connect({ servers: url, ...credentials });
const reply = new TextEncoder().encode('{"ok":true,"data":{"service":"raw","instanceId":"raw"}}');
nc.subscribe(subject, { queue: 'raw-responders', callback: (_error, message) => message.respond(reply) });
await nc.flush();
process.stdout.write('ready\n');
// The server may already be gone when the benchmark stops: exit either way.
process.on('SIGTERM', () =>
  nc
    .drain()
    .catch(() => undefined)
    .then(() => process.exit(0)),
);
