import { Observable } from 'rxjs';
import type { ChatEvent } from '@talon/contracts';
import { toWireError } from '@talon/errors';
import type { ChatService } from './chat-service.js';
import { ClientGoneError } from './client-gone-error.js';

/**
 * Runs one message and turns its events into a stream that ends with a `result` event (how the turn
 * ended) or an `error` event: what SSE and gRPC send to the client. Unsubscribing before the end
 * (the client disconnected) cancels the turn.
 */
export function chatEventStream(
  chat: ChatService,
  sessionId: string,
  message: string,
): Observable<ChatEvent> {
  return new Observable<ChatEvent>((subscriber) => {
    // A client that goes away (stream closed or cancelled) stops the turn and its tool calls.
    const clientGone = new AbortController();
    let finished = false;
    chat
      .send(sessionId, message, (event) => subscriber.next(event), clientGone.signal)
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
