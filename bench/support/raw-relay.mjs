// Baseline middle hop: receives a request, forwards it to the responder with nc.request, relays the reply.
// Connects as NATS_USER / NATS_PASSWORD when set (the benchmarks' servers run with authorization).
import { connect } from '@nats-io/transport-node';

const [url, subject, target] = process.argv.slice(2);
const credentials = process.env.NATS_PASSWORD
  ? {
      user: process.env.NATS_USER,
      pass: process.env.NATS_PASSWORD,
      inboxPrefix: process.env.NATS_INBOX_PREFIX,
    }
  : {};
const nc = await connect({ servers: url, ...credentials });
nc.subscribe(subject, {
  queue: 'raw-relays',
  callback: (_error, message) => {
    nc.request(target, message.data, { timeout: 5000 }).then(
      (reply) => message.respond(reply.data),
      (error) =>
        message.respond(
          new TextEncoder().encode(
            JSON.stringify({ ok: false, error: { code: 'INTERNAL', message: String(error) } }),
          ),
        ),
    );
  },
});
await nc.flush();
process.stdout.write('ready\n');
process.on('SIGTERM', () => nc.drain().then(() => process.exit(0)));
