import {
  AckPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { AUDIT_OUTBOX, AuditOutboxRecordSchema, type AuditOutboxRecord } from '@talon/contracts';
import { decodeJsonPayload, encodeJson, validatePayload, type JsonLogger } from '@talon/service-runtime';
import type { AuditCommit, AuditOutbox } from './audit-outbox.js';
import { unreadableAuditRecord } from './unreadable-audit-record.js';

/** Options of {@link JetStreamAuditOutbox}. */
export interface JetStreamAuditOutboxOptions {
  /** Most bytes the outbox holds while the database is away; a full outbox refuses (callers write directly). */
  maxBytes?: number;
  /** Records one orchestrator holds uncommitted at once (bounds its memory while the database is slow). */
  maxInFlight?: number;
  /** How long a taken record may stay unacknowledged before another orchestrator gets it. */
  ackWaitMs?: number;
}

const DEFAULT_MAX_BYTES = 1024 ** 3;
const DEFAULT_MAX_IN_FLIGHT = 5_000;
const DEFAULT_ACK_WAIT_MS = 10_000;
/** JetStream drops a repeated message id within this window (a publish retried after a lost ack). */
const DUPLICATE_WINDOW_MS = 120_000;
/** First and last pause between checks of `drained`. */
const DRAIN_POLL_FIRST_MS = 2;
const DRAIN_POLL_MAX_MS = 50;
/** An outbox message is one record; anything larger than NATS's default payload limit is not one. */
const MAX_RECORD_BYTES = 1024 * 1024;

/**
 * The audit outbox on a JetStream stream ({@link AUDIT_OUTBOX}): file storage, work-queue retention,
 * discard-new, one durable pull consumer that every orchestrator drains. A record is acknowledged only
 * after its commit, so one taken by an orchestrator that dies is delivered to another after `ackWaitMs`.
 */
export class JetStreamAuditOutbox implements AuditOutbox {
  private readonly js: JetStreamClient;
  private manager?: Promise<JetStreamManager>;
  private messages?: ConsumerMessages;
  private draining?: Promise<void>;
  /** Records taken and not yet committed, with their messages (told `working` while the commit waits). */
  private readonly inFlight = new Map<Promise<void>, JsMsg>();
  private keepAlive?: NodeJS.Timeout;

  constructor(
    private readonly connection: NatsConnection,
    private readonly logger: JsonLogger,
    private readonly options: JetStreamAuditOutboxOptions = {},
  ) {
    this.js = jetstream(connection);
  }

  /** A message may come back after another's (redelivery): every row keeps its id. */
  readonly committedInOrder = false;

  async publish(record: AuditOutboxRecord): Promise<void> {
    await this.ready();
    await this.js.publish(AUDIT_OUTBOX.subject, encodeJson(record), {
      msgID: record.recordId,
      expect: { streamName: AUDIT_OUTBOX.stream },
    });
  }

  async start(commit: AuditCommit): Promise<void> {
    await this.ready();
    const consumer = await this.js.consumers.get(AUDIT_OUTBOX.stream, AUDIT_OUTBOX.consumer);
    const maxInFlight = this.options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this.messages = await consumer.consume({ max_messages: Math.min(maxInFlight, 1_000) });
    // A commit that waits for a slow or absent database keeps its records: each pause of half the ack
    // wait tells JetStream they are still being worked on, so they are not delivered to another.
    const ackWaitMs = this.options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS;
    this.keepAlive = setInterval(() => {
      for (const message of this.inFlight.values()) message.working();
    }, ackWaitMs / 2);
    this.keepAlive.unref();
    const messages = this.messages;
    this.draining = (async () => {
      for await (const message of messages) this.take(message, commit);
    })().catch((error: unknown) =>
      this.logger.write('error', 'the audit outbox drain stopped', { error: String(error) }),
    );
  }

  async drained(maxWaitMs: number): Promise<boolean> {
    const manager = await this.ready();
    const target = (await manager.streams.info(AUDIT_OUTBOX.stream)).state.last_seq;
    const deadline = Date.now() + maxWaitMs;
    for (let pause = DRAIN_POLL_FIRST_MS; ; pause = Math.min(pause * 2, DRAIN_POLL_MAX_MS)) {
      const info = await manager.consumers.info(AUDIT_OUTBOX.stream, AUDIT_OUTBOX.consumer);
      if (info.ack_floor.stream_seq >= target) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  async stop(): Promise<void> {
    if (this.messages) await this.messages.close().catch(() => undefined);
    await this.draining;
    await Promise.all([...this.inFlight.keys()]);
    clearInterval(this.keepAlive);
  }

  /** Commits one taken record, then acknowledges it; a message that is not a record is written as one that says so. */
  private take(message: JsMsg, commit: AuditCommit): void {
    let record: AuditOutboxRecord;
    try {
      record = validatePayload<AuditOutboxRecord>(
        AuditOutboxRecordSchema,
        decodeJsonPayload(message.data, MAX_RECORD_BYTES),
        'An audit outbox record',
      );
    } catch (error) {
      record = unreadableAuditRecord(message.headers?.get('Nats-Msg-Id'), { seq: message.seq }, error);
    }
    const done = commit(record).then(() => {
      message.ack();
      this.inFlight.delete(done);
    });
    this.inFlight.set(done, message);
  }

  /** Creates the stream and its consumer once (both calls are idempotent for equal settings). */
  private ready(): Promise<JetStreamManager> {
    this.manager ??= (async () => {
      const manager = await jetstreamManager(this.connection);
      await manager.streams.add({
        name: AUDIT_OUTBOX.stream,
        subjects: [AUDIT_OUTBOX.subject],
        storage: StorageType.File,
        retention: RetentionPolicy.Workqueue,
        discard: DiscardPolicy.New,
        max_bytes: this.options.maxBytes ?? DEFAULT_MAX_BYTES,
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      });
      const settings = {
        ack_wait: nanos(this.options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS),
        max_ack_pending: this.options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
        max_deliver: -1,
      };
      try {
        await manager.consumers.add(AUDIT_OUTBOX.stream, {
          durable_name: AUDIT_OUTBOX.consumer,
          ack_policy: AckPolicy.Explicit,
          ...settings,
        });
      } catch {
        // It exists with other settings (another orchestrator's options, an older version): take ours.
        await manager.consumers.update(AUDIT_OUTBOX.stream, AUDIT_OUTBOX.consumer, settings);
      }
      return manager;
    })();
    // A failed setup is tried again by the next call instead of failing every later one.
    this.manager.catch(() => (this.manager = undefined));
    return this.manager;
  }
}
