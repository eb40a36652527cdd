import {
  headers as natsHeaders,
  type Msg,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import { ERROR_CODES, HEADERS, type Envelope } from '@talon/contracts';
import { TalonError, toWireError } from '@talon/errors';
import {
  ATTR,
  extractTraceContext,
  inSpan,
  isTracingEnabled,
  SpanKind,
  talonMetrics,
} from '@talon/telemetry';
import { ReplyTooLargeError } from './errors/reply-too-large-error.js';
import { decodeJsonPayload, encodeJson } from './json-codec.js';
import type { JsonLogger } from './json-logger.js';
import { TalonNatsContext } from './talon-nats-context.js';

/** Extras a handler can set in `@MessagePattern(subject, { queue: false })`. */
export interface PatternExtras {
  /** `false` subscribes without a queue group so every instance answers (health, catalog scatter). */
  queue?: string | false;
}

/** Options of the transport. */
export interface TalonNatsServerOptions {
  connection: NatsConnection;
  /** Queue group joined by every handler unless its extras say otherwise. */
  queue: string;
  maxPayloadBytes: number;
  drainTimeoutMs: number;
  logger: JsonLogger;
}

/** The transport id of {@link TalonNatsServer}. */
const TALON_NATS_TRANSPORT = Symbol('talon-nats');

/**
 * A Nest transport strategy speaking plain JSON on NATS: the request body is the payload itself and
 * the reply is a Talon envelope, so any NATS client can call a service. Shutdown drains the
 * subscriptions, waits for in-flight handlers (bounded), then the connection drains, so no routed
 * request is lost and a caller never meets silence.
 */
export class TalonNatsServer extends Server implements CustomTransportStrategy {
  private readonly subscriptions: Subscription[] = [];
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private closing?: Promise<void>;

  constructor(private readonly options: TalonNatsServerOptions) {
    super();
    // Its own id, so handlers of other transports (the orchestrator's `@GrpcMethod`s) are not bound here: an
    // unset id takes every pattern, and the orchestrator subscribed to its gRPC method names on NATS.
    this.transportId = TALON_NATS_TRANSPORT;
  }

  /** Requests being handled right now. */
  get inFlightCount(): number {
    return this.inFlight;
  }

  listen(callback: (...optionalParams: unknown[]) => unknown): void {
    for (const [pattern, handler] of this.messageHandlers) {
      const extras = (handler.extras ?? {}) as PatternExtras;
      const queue = extras.queue === false ? undefined : (extras.queue ?? this.options.queue);
      const subscription = this.options.connection.subscribe(pattern, {
        queue,
        callback: (error, message) => {
          if (error)
            return this.options.logger.write('error', 'subscription error', {
              pattern,
              error: String(error),
            });
          void this.handleMessage(pattern, message);
        },
      });
      this.subscriptions.push(subscription);
    }
    callback();
  }

  private async handleMessage(pattern: string, message: Msg): Promise<void> {
    this.inFlight++;
    const metrics = talonMetrics();
    metrics.natsInFlight.inc(pattern);
    const started = performance.now();
    try {
      const reply = isTracingEnabled()
        ? await this.invokeInSpan(pattern, message)
        : await this.invoke(pattern, message);
      const bytes = message.reply ? this.encodeReply(reply, message) : undefined;
      const elapsed = performance.now() - started;
      if (bytes) message.respond(bytes);
      // Counted after the reply has left: the caller does not wait for the bookkeeping.
      metrics.natsRequests.inc({ subject: pattern, code: reply.ok ? 'ok' : reply.error.code });
      metrics.natsDuration.observe({ subject: pattern }, elapsed / 1000);
    } catch (error) {
      this.options.logger.write('error', 'failed to reply', {
        subject: message.subject,
        error: String(error),
      });
    } finally {
      metrics.natsInFlight.dec(pattern);
      this.inFlight--;
      if (this.inFlight === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
    }
  }

  /** The handler inside a server span whose parent is the trace context the requester sent, if any. */
  private invokeInSpan(pattern: string, message: Msg): Promise<Envelope<unknown>> {
    return inSpan(
      `process ${message.subject}`,
      {
        kind: SpanKind.SERVER,
        parent: extractTraceContext(message.headers),
        attributes: {
          [ATTR.messagingSystem]: 'nats',
          [ATTR.messagingOperation]: 'process',
          [ATTR.messagingOperationType]: 'process',
          [ATTR.messagingDestination]: message.subject,
          [ATTR.messagingBodySize]: message.data.byteLength,
        },
      },
      async (span) => {
        const reply = await this.invoke(pattern, message);
        if (!reply.ok) {
          span.setAttribute(ATTR.errorType, reply.error.code);
          span.setAttribute(ATTR.errorCode, reply.error.code);
        }
        return reply;
      },
    );
  }

  private async invoke(pattern: string, message: Msg): Promise<Envelope<unknown>> {
    const handler = this.messageHandlers.get(pattern);
    const context = new TalonNatsContext([
      message.subject,
      message.headers?.get(HEADERS.callId) || undefined,
      message.headers?.get(HEADERS.traceparent) || undefined,
      Number(message.headers?.get(HEADERS.deadline)) || undefined,
      message.headers?.get(HEADERS.token) || undefined,
      this.acknowledge,
    ]);
    try {
      const payload = decodeJsonPayload(message.data, this.options.maxPayloadBytes);
      if (!handler) throw new Error(`no handler for ${pattern}`);
      const result = await handler(payload, context);
      // Handlers answer with a value or a promise; only an Observable one goes through rxjs (its last value).
      const data = isObservable(result) ? await lastValueFrom(result, { defaultValue: null }) : await result;
      return { ok: true, data: data ?? null };
    } catch (error) {
      const wire = toWireError(error);
      if (wire.code === 'INTERNAL') {
        this.options.logger.write('error', 'handler failed', {
          subject: message.subject,
          callId: context.callId,
          error: String((error as Error)?.stack ?? error),
        });
      }
      return { ok: false, error: wire };
    }
  }

  /** Never the reply subject: each request gets exactly one reply (see `allowResponses`). */
  private readonly acknowledge = (subject: string, instanceId: string): void => {
    const headers = natsHeaders();
    headers.set(HEADERS.ack, instanceId);
    try {
      this.options.connection.publish(subject, undefined, { headers });
    } catch {
      // A closed connection: the caller's probe finds the call gone.
    }
  };

  /**
   * The reply as bytes, or a typed error envelope when it cannot travel: a reply the server's `max_payload`
   * would refuse is dropped by NATS without a word (the caller would see TIMEOUT), and a value that cannot
   * be encoded would leave no reply at all.
   */
  private encodeReply(reply: Envelope<unknown>, message: Msg): Uint8Array {
    const maxPayload = this.options.connection.info?.max_payload;
    let error: TalonError;
    try {
      const bytes = encodeJson(reply);
      if (maxPayload === undefined || bytes.byteLength <= maxPayload) return bytes;
      error = new ReplyTooLargeError(bytes.byteLength, maxPayload);
    } catch (cause) {
      this.options.logger.write('error', 'reply could not be encoded', {
        subject: message.subject,
        callId: message.headers?.get(HEADERS.callId) || undefined,
        error: String(cause),
      });
      error = new TalonError(ERROR_CODES.INTERNAL, 'The reply could not be encoded as JSON.', { cause });
    }
    return encodeJson({ ok: false, error: toWireError(error) });
  }

  /**
   * Stops taking work without dropping any: each subscription is drained (the server stops routing to
   * it and every message already routed is still handled), then in-flight handlers finish (bounded by
   * `drainTimeoutMs`). Called once by the service's stop before the app closes; later calls wait for it.
   */
  close(): Promise<void> {
    return (this.closing ??= this.drainAll());
  }

  private async drainAll(): Promise<void> {
    const subscriptions = this.subscriptions.splice(0);
    await Promise.all(subscriptions.map((subscription) => subscription.drain().catch(() => undefined)));
    if (this.inFlight > 0) {
      this.options.logger.write('info', 'draining in-flight requests', { inFlight: this.inFlight });
      await Promise.race([
        new Promise<void>((resolve) => this.idleWaiters.push(resolve)),
        new Promise<void>((resolve) => setTimeout(resolve, this.options.drainTimeoutMs).unref()),
      ]);
    }
  }

  on(): void {
    // Connection status events are logged by the owner of the connection.
  }

  unwrap<T>(): T {
    return this.options.connection as T;
  }
}
