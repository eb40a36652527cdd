import { createParser } from 'eventsource-parser';
import { ERROR_CODES, HEADERS, type ChatEvent } from '@talon/contracts';
import { EventQueue } from './event-queue.js';
import type { HttpServerOptions } from './talon-client-options.js';
import { TalonAbortedError } from './talon-aborted-error.js';
import { CLIENT_ERROR_CODES, TalonError } from './talon-error.js';
import { TalonStreamInterruptedError } from './talon-stream-interrupted-error.js';
import type { TalonTransport, TransportCall, TransportStream } from './talon-transport.js';

/**
 * The HTTP transport: `POST /v1/rpc/<method>` with `Authorization: Bearer`; a chat stream is the SSE
 * reply of `POST /v1/sessions/<id>/messages`, resumed with `GET /v1/sessions/<id>/events` and `Last-Event-ID`.
 */
export class HttpTransport implements TalonTransport {
  private readonly base: string;
  private readonly fetch: typeof fetch;

  constructor(
    options: string | HttpServerOptions,
    private readonly token: string | undefined,
  ) {
    const { url, fetch: given } = typeof options === 'string' ? { url: options, fetch: undefined } : options;
    this.base = url.replace(/\/+$/, '');
    this.fetch = given ?? globalThis.fetch;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      'content-type': 'application/json',
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...extra,
    };
  }

  async call({ method, payload, timeoutMs, signal, callId }: TransportCall): Promise<unknown> {
    const deadline = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await this.fetch(`${this.base}/v1/rpc/${encodeURIComponent(method)}`, {
        method: 'POST',
        headers: this.headers(callId ? { [HEADERS.callId]: callId } : {}),
        body: JSON.stringify(payload ?? {}),
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
      const text = await response.text();
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    } catch (error) {
      throw this.failure(error, method, timeoutMs, signal, deadline);
    }
  }

  private failure(
    error: unknown,
    method: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    deadline: AbortSignal,
  ): TalonError {
    if (signal?.aborted) return new TalonAbortedError(method, signal.reason);
    if (deadline.aborted)
      return new TalonError(ERROR_CODES.TIMEOUT, `${method} did not answer within ${timeoutMs} ms.`, {
        retryable: true,
        method,
        cause: error,
      });
    return new TalonError(
      CLIENT_ERROR_CODES.CONNECTION_FAILED,
      `Cannot reach the Talon HTTP API at ${this.base}: ${(error as Error).message}. Is the orchestrator running there?`,
      { retryable: true, method, cause: error },
    );
  }

  async *stream({ sessionId, start, idleMs, signal }: TransportStream): AsyncIterable<ChatEvent> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let lastEventId = 'lastEventId' in start ? start.lastEventId : undefined;
    let idle: NodeJS.Timeout | undefined;
    let idleFired = false;
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        idleFired = true;
        controller.abort();
      }, idleMs);
    };
    const path = `${this.base}/v1/sessions/${encodeURIComponent(sessionId)}`;
    const interrupted = (cause?: unknown) => new TalonStreamInterruptedError(sessionId, lastEventId, cause);
    try {
      armIdle();
      let response: Response;
      try {
        response =
          'message' in start
            ? await this.fetch(`${path}/messages`, {
                method: 'POST',
                headers: this.headers({ accept: 'text/event-stream' }),
                body: JSON.stringify({ message: start.message }),
                signal: controller.signal,
              })
            : await this.fetch(`${path}/events`, {
                headers: this.headers({
                  accept: 'text/event-stream',
                  ...(start.lastEventId ? { 'last-event-id': start.lastEventId } : {}),
                }),
                signal: controller.signal,
              });
      } catch (error) {
        if (signal?.aborted) throw new TalonAbortedError(`The chat stream of ${sessionId}`, signal.reason);
        if (idleFired) throw interrupted(error);
        throw this.failure(error, 'chat stream', idleMs, undefined, AbortSignal.abort());
      }
      if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        // A refusal before the stream opened: the envelope's error, as the stream's one fatal event.
        const body = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
        yield { type: 'error', sessionId, error: body?.error ?? body, fatal: true } as ChatEvent;
        return;
      }
      const queue = new EventQueue<ChatEvent>();
      const parser = createParser({
        onEvent: (message) => {
          try {
            const event = JSON.parse(message.data) as ChatEvent;
            if (message.id) event.eventId = message.id;
            queue.push(event);
          } catch {
            // Not JSON: not an event of the contract, skipped.
          }
        },
      });
      void (async () => {
        const decoder = new TextDecoder();
        try {
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
            parser.feed(decoder.decode(chunk, { stream: true }));
          queue.end();
        } catch (error) {
          queue.fail(error);
        }
      })();
      let finished = false;
      try {
        for await (const event of queue) {
          // Events that arrived with or before the abort are not handed out after it (see below).
          if (signal?.aborted) break;
          armIdle();
          if (event.eventId !== undefined) lastEventId = String(event.eventId);
          yield event;
          if (event.type === 'result' || (event.type === 'error' && event.fatal === true)) finished = true;
          if ('lastEventId' in start && event.type === 'turn_finished' && !event.subtask) finished = true;
          if (finished) return;
        }
      } catch (error) {
        if (signal?.aborted) throw new TalonAbortedError(`The chat stream of ${sessionId}`, signal.reason);
        throw interrupted(error);
      }
      if (signal?.aborted) throw new TalonAbortedError(`The chat stream of ${sessionId}`, signal.reason);
      throw interrupted();
    } finally {
      clearTimeout(idle);
      signal?.removeEventListener('abort', onAbort);
      controller.abort();
    }
  }

  async close(): Promise<void> {}
}
