import type * as NatsClient from '@nats-io/transport-node';
import type { MsgHdrs, NatsConnection, Subscription } from '@nats-io/transport-node';
import { API_PREFIX, ERROR_CODES, HEADERS, SUBJECTS, type ChatEvent } from '@talon/contracts';
import { EventQueue } from './event-queue.js';
import { ReplyInbox } from './reply-inbox.js';
import type { NatsServerOptions } from './talon-client-options.js';
import { TalonAbortedError } from './talon-aborted-error.js';
import { CLIENT_ERROR_CODES, TalonError } from './talon-error.js';
import { TalonStreamInterruptedError } from './talon-stream-interrupted-error.js';
import type { TalonTransport, TransportCall, TransportStream } from './talon-transport.js';

/** How long `chat.send` may run over NATS before the client gives up on its reply (a turn may wait for approvals). */
export const NATS_TURN_TIMEOUT_MS = 15 * 60_000;

type NatsModule = typeof NatsClient;

function isOpenConnection(value: NatsConnection | NatsServerOptions): value is NatsConnection {
  return typeof (value as NatsConnection).request === 'function';
}

/** Errors from nats.js, checked by name so a second copy of the library still matches. */
function natsFailure(error: unknown, method: string, timeoutMs: number): TalonError {
  const err = error as { name?: string; code?: string; message?: string; cause?: unknown };
  const text = `${err?.name ?? ''} ${err?.message ?? ''} ${String((err?.cause as Error | undefined)?.message ?? '')}`;
  if (/no ?responders/i.test(text) || err?.code === '503')
    return new TalonError(
      ERROR_CODES.NO_RESPONDERS,
      `No orchestrator answers ${API_PREFIX}.${method}. Is Talon running on this NATS server?`,
      { retryable: true, method, cause: error },
    );
  if (/timeout/i.test(text))
    return new TalonError(ERROR_CODES.TIMEOUT, `${method} did not answer within ${timeoutMs} ms.`, {
      retryable: true,
      method,
      cause: error,
    });
  return new TalonError(
    CLIENT_ERROR_CODES.CONNECTION_FAILED,
    `${method} failed on NATS: ${err?.message ?? error}`,
    {
      retryable: false,
      method,
      cause: error,
    },
  );
}

/**
 * The NATS transport: `talon.api.v1.<method>` request/reply with the token in the `talon-token`
 * header; a chat stream is the session's event subject plus the `chat.send` reply.
 */
export class NatsTransport implements TalonTransport {
  private ready: Promise<{ nats: NatsModule; connection: NatsConnection }> | undefined;
  private readonly owned: boolean;

  constructor(
    private readonly target: NatsConnection | NatsServerOptions,
    private readonly token: string | undefined,
  ) {
    this.owned = !isOpenConnection(target);
  }

  private open(): Promise<{ nats: NatsModule; connection: NatsConnection }> {
    this.ready ??= (async () => {
      const nats = await import('@nats-io/transport-node');
      const target = this.target;
      if (isOpenConnection(target)) return { nats, connection: target };
      try {
        const connection = await nats.connect({
          servers: target.servers,
          name: target.name ?? 'talon-client',
          // No stack trace built per request (0.1 ms of CPU each): failures carry typed codes instead.
          noAsyncTraces: true,
          ...(target.user ? { user: target.user, pass: target.pass } : {}),
        });
        return { nats, connection };
      } catch (error) {
        this.ready = undefined;
        throw new TalonError(
          CLIENT_ERROR_CODES.CONNECTION_FAILED,
          `Cannot connect to NATS at ${String(target.servers)}: ${(error as Error).message}. Check the URL and the api user's credentials.`,
          { retryable: true, cause: error },
        );
      }
    })();
    return this.ready;
  }

  private headersFor(nats: NatsModule, callId?: string): MsgHdrs | undefined {
    if (!this.token && !callId) return undefined;
    const result = nats.headers();
    if (this.token) result.set(HEADERS.token, this.token);
    if (callId) result.set(HEADERS.callId, callId);
    return result;
  }

  async call({ method, payload, timeoutMs, signal, callId }: TransportCall): Promise<unknown> {
    const { nats, connection } = await this.open();
    const headers = this.headersFor(nats, callId);
    // Through the connection's shared reply inbox, not `connection.request`: on a connection opened with
    // nats.js's defaults (as most callers open theirs) that builds two Errors with stacks per request, a
    // quarter of this client's CPU at concurrency 64 (profiled).
    const request = ReplyInbox.of(connection).request(
      `${API_PREFIX}.${method}`,
      Buffer.from(JSON.stringify(payload ?? {}), 'utf8'),
      timeoutMs,
      headers,
    );
    let reply;
    try {
      reply = await (signal ? abortable(request, signal, method) : request);
    } catch (error) {
      if (TalonError.isInstance(error)) throw error;
      throw natsFailure(error, method, timeoutMs);
    }
    try {
      return reply.json();
    } catch {
      return undefined;
    }
  }

  async *stream({ sessionId, start, idleMs, signal }: TransportStream): AsyncIterable<ChatEvent> {
    const { connection } = await this.open();
    const queue = new EventQueue<ChatEvent>();
    let lastEventId: string | undefined = 'lastEventId' in start ? start.lastEventId : undefined;
    const subscription: Subscription = connection.subscribe(SUBJECTS.sessionEvents(sessionId), {
      callback: (error, message) => {
        if (error) return queue.fail(new TalonStreamInterruptedError(sessionId, lastEventId, error));
        try {
          queue.push(message.json<ChatEvent>());
        } catch {
          // A message that is not JSON is not an event of the contract: skipped.
        }
      },
    });
    const onAbort = () =>
      queue.fail(new TalonAbortedError(`The chat stream of ${sessionId}`, signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    let idle: NodeJS.Timeout | undefined;
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => queue.fail(new TalonStreamInterruptedError(sessionId, lastEventId)), idleMs);
    };
    void connection.closed().then(() => queue.fail(new TalonStreamInterruptedError(sessionId, lastEventId)));
    try {
      await connection.flush();
      if ('message' in start)
        this.call({
          method: 'chat.send',
          payload: { sessionId, message: start.message },
          timeoutMs: NATS_TURN_TIMEOUT_MS,
        }).then(
          (body) => {
            // The reply becomes the stream's last event, as on SSE: `result`, or a fatal `error`.
            const envelope = body as { ok?: boolean; data?: object; error?: unknown } | undefined;
            queue.push(
              (envelope?.ok === true
                ? { ...envelope.data, type: 'result' }
                : { type: 'error', sessionId, error: envelope?.error ?? body, fatal: true }) as ChatEvent,
            );
            queue.end();
          },
          (error: unknown) =>
            queue.fail(
              TalonError.isInstance(error) && error.code !== ERROR_CODES.TIMEOUT
                ? error
                : new TalonStreamInterruptedError(sessionId, lastEventId, error),
            ),
        );
      armIdle();
      for await (const event of queue) {
        // A caller who aborted gets no more events, even ones that arrived before the abort.
        if (signal?.aborted) throw new TalonAbortedError(`The chat stream of ${sessionId}`, signal.reason);
        armIdle();
        if (event.eventId !== undefined) lastEventId = String(event.eventId);
        yield event;
        if ('lastEventId' in start && event.type === 'turn_finished' && !event.subtask) return;
      }
      if ('lastEventId' in start) throw new TalonStreamInterruptedError(sessionId, lastEventId);
    } finally {
      clearTimeout(idle);
      signal?.removeEventListener('abort', onAbort);
      subscription.unsubscribe();
    }
  }

  async close(): Promise<void> {
    if (!this.owned || !this.ready) return;
    const { connection } = await this.ready;
    await connection.close();
  }
}

/** Races a promise against an AbortSignal. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new TalonAbortedError(what, signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new TalonAbortedError(what, signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
