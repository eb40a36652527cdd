import { createParser } from 'eventsource-parser';
import { bearer, errorOf, reportApiError } from './talon-api.js';
import type { ApiError } from './api-error.js';

/** Waits between reconnects: doubles from the first to the last. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

export interface EventStreamHandlers<T> {
  onEvent(event: T): void;
  /**
   * The stream is (re)connected; `resumed` is false on the first connection, `withLastEventId` tells whether
   * the reconnect asked the server for the events it missed.
   */
  onOpen?(resumed: boolean, withLastEventId: boolean): void;
  /** The stream broke and will reconnect after `retryInMs`. */
  onDrop?(reason: string, retryInMs: number): void;
  /** A refusal that retrying cannot fix (bad id, no access, revoked token): the stream stops. */
  onFatal?(error: ApiError): void;
}

/**
 * Reads an SSE endpoint with `fetch`, since EventSource cannot send the Authorization header and the token
 * must never travel in the URL. Reconnects with backoff and sends `Last-Event-ID` once the server has named
 * an event, so a cut stream resumes where it stopped. Returns a function that closes the stream.
 */
export function openEventStream<T>(path: string, handlers: EventStreamHandlers<T>): () => void {
  const abort = new AbortController();
  let lastEventId: string | undefined;
  let connections = 0;

  const connect = async (): Promise<void> => {
    let wait = RETRY_FIRST_MS;
    while (!abort.signal.aborted) {
      try {
        const response = await fetch(path, {
          headers: {
            accept: 'text/event-stream',
            ...bearer(),
            ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
          },
          signal: abort.signal,
        });
        if (!response.ok) {
          const error = reportApiError(await errorOf(response));
          if (response.status >= 400 && response.status < 500 && response.status !== 429) {
            handlers.onFatal?.(error);
            return;
          }
          throw error;
        }
        handlers.onOpen?.(connections++ > 0, lastEventId !== undefined);
        wait = RETRY_FIRST_MS;
        const parser = createParser({
          onEvent: (message) => {
            if (message.id !== undefined) lastEventId = message.id;
            try {
              handlers.onEvent(JSON.parse(message.data) as T);
            } catch {
              // A line that is not JSON is not an event of ours: skip it.
            }
          },
        });
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
        throw new Error('the server closed the stream');
      } catch (error) {
        if (abort.signal.aborted) return;
        handlers.onDrop?.(String((error as Error)?.message ?? error), wait);
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, RETRY_MAX_MS);
      }
    }
  };
  void connect();
  return () => abort.abort();
}
