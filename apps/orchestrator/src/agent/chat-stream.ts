import { Observable } from 'rxjs';
import type { ChatEvent } from '@talon/contracts';
import { toWireError } from '@talon/errors';
import type { ChatService } from './chat-service.js';

/**
 * Runs one message and turns its events into a stream that ends with a `result` event (how the turn
 * ended) or an `error` event: what SSE and gRPC send to the client.
 */
export function chatEventStream(
  chat: ChatService,
  sessionId: string,
  message: string,
): Observable<ChatEvent> {
  return new Observable<ChatEvent>((subscriber) => {
    chat
      .send(sessionId, message, (event) => subscriber.next(event))
      .then((reply) => subscriber.next({ type: 'result', ...reply }))
      .catch((error) => subscriber.next({ type: 'error', sessionId, error: toWireError(error), fatal: true }))
      .finally(() => subscriber.complete());
  });
}
