// Baseline middle hop: receives a request, forwards it to the responder with nc.request, relays the reply.
import { connect } from '@nats-io/transport-node';

const [url, subject, target] = process.argv.slice(2);
const nc = await connect({ servers: url });
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
