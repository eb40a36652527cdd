import { Observable } from 'rxjs';
import type { ChatEvent } from '@talon/contracts';
import { toWireError } from '@talon/errors';
import { ATTR, extractTraceContext, inSpan, SpanKind, type HeaderCarrier } from '@talon/telemetry';
import type { ChatService } from './chat-service.js';
import { ClientGoneError } from './client-gone-error.js';

/** Where a streamed turn came from, for its span. */
export interface ChatStreamOrigin {
  readonly surface: 'grpc' | 'http';
  /** The request's headers or metadata: a `traceparent` there becomes the parent of the turn. */
  readonly traceCarrier?: HeaderCarrier;
}

/**
 * Runs one message and turns its events into a stream that ends with a `result` event (how the turn
 * ended) or an `error` event: what SSE and gRPC send to the client. Unsubscribing before the end
 * (the client disconnected) cancels the turn. The turn runs in a server span named like the router's
 * `chat.send`, continuing the caller's trace when the request carries one.
 */
export function chatEventStream(
  chat: ChatService,
  sessionId: string,
  message: string,
  origin?: ChatStreamOrigin,
): Observable<ChatEvent> {
  return new Observable<ChatEvent>((subscriber) => {
    // A client that goes away (stream closed or cancelled) stops the turn and its tool calls.
    const clientGone = new AbortController();
    let finished = false;
    const send = () => chat.send(sessionId, message, (event) => subscriber.next(event), clientGone.signal);
    const turn =
      origin === undefined
        ? send()
        : inSpan(
            'talon.api/chat.send',
            {
              kind: SpanKind.SERVER,
              parent: extractTraceContext(origin.traceCarrier),
              attributes: {
                [ATTR.rpcSystem]: 'talon',
                [ATTR.rpcService]: 'talon.api.v1',
                [ATTR.rpcMethod]: 'chat.send',
                [ATTR.apiSurface]: origin.surface,
                [ATTR.sessionId]: sessionId,
              },
            },
            send,
          );
    turn
      .then((reply) => subscriber.next({ type: 'result', ...reply }))
      .catch((error) => subscriber.next({ type: 'error', sessionId, error: toWireError(error), fatal: true }))
      .finally(() => {
        finished = true;
        subscriber.complete();
      });
    return () => {
      if (!finished) clientGone.abort(new ClientGoneError(sessionId));
    };
  });
}
