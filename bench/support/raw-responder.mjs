// Baseline worker: plain @nats-io/transport-node, replies `{ok:true,data:{}}` in a queue group.
import { connect } from '@nats-io/transport-node';

const [url, subject] = process.argv.slice(2);
const nc = await connect({ servers: url });
const reply = new TextEncoder().encode('{"ok":true,"data":{"service":"raw","instanceId":"raw"}}');
nc.subscribe(subject, { queue: 'raw-responders', callback: (_error, message) => message.respond(reply) });
await nc.flush();
process.stdout.write('ready\n');
process.on('SIGTERM', () => nc.drain().then(() => process.exit(0)));
