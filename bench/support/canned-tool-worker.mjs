// A tool-worker reduced to nats.js: it announces the tools of the announcement it is given (as its own
// instance), answers catalog scatters and failover probes, and answers every call with one fixed result.
// Beside the real worker it splits a dispatch's overhead into the dispatcher's part and the worker's part.
// Connects as NATS_USER / NATS_PASSWORD (the tool-worker's user of the benchmark's server).
import { connect } from '@nats-io/transport-node';
import { QUEUE_GROUPS, SUBJECTS } from '../../libs/contracts/dist/index.js';

const [url, announcementJson] = process.argv.slice(2);
const nc = await connect({
  servers: url,
  user: process.env.NATS_USER,
  pass: process.env.NATS_PASSWORD,
  inboxPrefix: process.env.NATS_INBOX_PREFIX,
});
const encode = (value) => new TextEncoder().encode(JSON.stringify(value));
const decoder = new TextDecoder();
const announcement = { ...JSON.parse(announcementJson), instanceId: `canned-${process.pid}` };
const { instanceId } = announcement;
const announce = () => nc.publish(SUBJECTS.toolAnnounce, encode(announcement));
const catalogReply = encode({ ok: true, data: announcement });
const callReply = encode({ ok: true, data: { output: { message: 'hello' }, durationMs: 0.01, instanceId } });
const probeReply = encode({ ok: true, data: { instanceId, held: [] } });
nc.subscribe(SUBJECTS.toolCatalogRequest, { callback: (_error, message) => message.respond(catalogReply) });
nc.subscribe(SUBJECTS.toolCallCheck(instanceId), {
  callback: (_error, message) => message.respond(probeReply),
});
nc.subscribe(SUBJECTS.toolCall(announcement.domain), {
  queue: QUEUE_GROUPS['tool-worker'],
  // Parsed as a worker must, then answered.
  callback: (_error, message) => {
    JSON.parse(decoder.decode(message.data));
    message.respond(callReply);
  },
});
announce();
const heartbeat = setInterval(announce, Math.floor(announcement.ttlMs / 3));
await nc.flush();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  clearInterval(heartbeat);
  nc.close()
    .catch(() => undefined)
    .then(() => process.exit(0));
});
