import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { ReplyInbox } from '@talon/client';
import { HEADERS, type Envelope } from '@talon/contracts';
import { fromWireError } from '@talon/errors';
import {
  ATTR,
  hasActiveTrace,
  injectTraceHeaders,
  inSpan,
  isTracingEnabled,
  SpanKind,
} from '@talon/telemetry';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeJson } from './json-codec.js';
import { linkStateOf } from './nats-link-state.js';
import { MalformedPayloadError } from './errors/malformed-payload-error.js';
import { NoRespondersError } from './errors/no-responders-error.js';
import { RequestTimeoutError } from './errors/request-timeout-error.js';

/** Per-request options. */
export interface RequestOptions {
  timeoutMs: number;
  /**
   * Send the deadline, call id and trace context as headers (default true). Tool calls carry their
   * call id and timeout in the body, so the dispatcher leaves headers out unless it has a trace to pass on.
   */
  headers?: boolean;
  callId?: string;
  traceparent?: string;
  /** An API token for the public API (`talon-token` header); implies headers. */
  token?: string;
}

/** Errors from nats.js that we map; checked by name so a second copy of the library still matches. */
function isNoResponders(error: unknown): boolean {
  const err = error as { name?: string; code?: string; message?: string; cause?: unknown };
  return (
    err?.name === 'NoRespondersError' ||
    err?.code === '503' ||
    /no responders/i.test(err?.message ?? '') ||
    (err?.cause !== undefined && isNoResponders(err.cause))
  );
}

function isTimeout(error: unknown): boolean {
  const err = error as { name?: string; code?: string; message?: string };
  return err?.name === 'TimeoutError' || err?.code === 'TIMEOUT' || /timeout/i.test(err?.message ?? '');
}

/** Below this much time left, a request lost to an outage is not sent again. */
const MIN_RETRY_MS = 50;
/** Pause before asking again when nobody answered right after a reconnect (peers still reconnecting). */
const RETRY_PAUSE_MS = 100;

/** The request failed because the connection dropped under it. */
function isConnectionGone(error: unknown): boolean {
  const err = error as { name?: string; message?: string };
  return /disconnect|connection.*(closed|lost)|reconnect/i.test(`${err?.name ?? ''} ${err?.message ?? ''}`);
}

/**
 * Request/reply between services with an explicit deadline on every call. Replies are Talon envelopes;
 * an error envelope is rethrown as a typed error. Shares the connection's {@link ReplyInbox}. A request
 * that a NATS outage swallowed (timeout or no responders while the link was down or settling) is sent
 * again once the link is back, as long as its deadline has not passed.
 */
export class NatsRequester {
  constructor(private readonly connection: NatsConnection) {}

  /** Fire and forget (a cancel to every worker of a domain). */
  publish(subject: string, payload: unknown): void {
    this.connection.publish(subject, encodeJson(payload));
  }

  async request<T>(subject: string, payload: unknown, options: RequestOptions): Promise<T> {
    const reply = await this.requestEnvelope<T>(subject, payload, options);
    if (reply.ok) return reply.data;
    throw fromWireError(reply.error);
  }

  async requestEnvelope<T>(subject: string, payload: unknown, options: RequestOptions): Promise<Envelope<T>> {
    if (!isTracingEnabled() || !hasActiveTrace()) return this.send<T>(subject, payload, options, false);
    return inSpan(
      `send ${subject}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTR.messagingSystem]: 'nats',
          [ATTR.messagingOperation]: 'send',
          [ATTR.messagingOperationType]: 'send',
          [ATTR.messagingDestination]: subject,
          ...(options.callId ? { [ATTR.callId]: options.callId } : {}),
        },
      },
      async (span) => {
        const reply = await this.send<T>(subject, payload, options, true);
        if (!reply.ok) {
          span.setAttribute(ATTR.errorType, reply.error.code);
          span.setAttribute(ATTR.errorCode, reply.error.code);
        }
        return reply;
      },
    );
  }

  /** One request; `traced` adds the active span's W3C trace context to the headers. */
  private async send<T>(
    subject: string,
    payload: unknown,
    options: RequestOptions,
    traced: boolean,
  ): Promise<Envelope<T>> {
    let headers;
    if (traced) {
      headers = natsHeaders();
      if (options.headers !== false) headers.set(HEADERS.deadline, String(Date.now() + options.timeoutMs));
      if (options.callId) headers.set(HEADERS.callId, options.callId);
      if (options.token) headers.set(HEADERS.token, options.token);
      injectTraceHeaders(headers);
    } else if (options.headers !== false || options.traceparent || options.token) {
      headers = natsHeaders();
      headers.set(HEADERS.deadline, String(Date.now() + options.timeoutMs));
      if (options.callId) headers.set(HEADERS.callId, options.callId);
      if (options.traceparent) headers.set(HEADERS.traceparent, options.traceparent);
      if (options.token) headers.set(HEADERS.token, options.token);
    }
    const deadline = Date.now() + options.timeoutMs;
    const link = linkStateOf(this.connection);
    const body = encodeJson(payload);
    let message;
    for (;;) {
      const sentAt = Date.now();
      try {
        message = await ReplyInbox.of(this.connection).request(
          subject,
          body,
          Math.max(1, deadline - sentAt),
          headers,
        );
        break;
      } catch (error) {
        const noResponders = isNoResponders(error);
        const lost = noResponders || isTimeout(error) || isConnectionGone(error);
        if (lost && link.overlapped(sentAt) && deadline - Date.now() > MIN_RETRY_MS) {
          await link.whenConnected(deadline - Date.now());
          if (noResponders) await sleep(RETRY_PAUSE_MS);
          if (deadline - Date.now() > MIN_RETRY_MS) continue;
        }
        if (noResponders) throw new NoRespondersError(subject);
        if (isTimeout(error)) throw new RequestTimeoutError(subject, options.timeoutMs);
        throw error;
      }
    }
    try {
      return message.json<Envelope<T>>();
    } catch (error) {
      throw new MalformedPayloadError(`reply on ${subject}: ${(error as Error).message}`);
    }
  }
}
