import type { LlmFailure } from './llm-failure.js';
import { parseRetryAfterMs } from './llm-failure.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * The error classes both official SDKs define (they share one generator, so the shapes match). Each
 * provider passes its own SDK's classes so `instanceof` stays exact.
 */
export interface SdkErrorClasses {
  readonly APIError: ErrorClass;
  readonly APIConnectionError: ErrorClass;
  readonly APIUserAbortError: ErrorClass;
}

/**
 * Translates an error thrown by an official SDK (or by `fetch` under it) into an {@link LlmFailure}.
 * `sdk` is undefined when the SDK never loaded; then no error can be one of its classes.
 */
export function describeSdkFailure(error: unknown, sdk: SdkErrorClasses | undefined): LlmFailure {
  if (sdk && error instanceof sdk.APIUserAbortError) return { kind: 'aborted' };
  if (sdk && error instanceof sdk.APIConnectionError)
    return { kind: 'connection', reason: describeCause(error) };
  if (sdk && error instanceof sdk.APIError) {
    const { status, headers } = error as Error & { status?: number; headers?: Headers };
    const reason = serverMessage(error);
    // A mid-stream error event (Anthropic `event: error`, OpenAI `data: {"error":…}`) carries no status.
    if (status === undefined) return { kind: 'server', reason };
    if (status === 401 || status === 403) return { kind: 'credentials', status };
    if (status === 429) return { kind: 'rate_limited', retryAfterMs: parseRetryAfterMs(headers) };
    if (status === 408 || status === 409 || status >= 500) {
      return { kind: 'server', status, retryAfterMs: parseRetryAfterMs(headers), reason };
    }
    return { kind: 'rejected', status, reason };
  }
  // Body reads that fail after the headers arrived surface as plain errors from fetch ("terminated").
  return { kind: 'connection', reason: describeCause(error) };
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** The server's own message from the error body (`{error:{message}}` in both APIs), else the SDK's. */
function serverMessage(error: Error): string {
  const body = (error as { error?: unknown }).error as
    { message?: unknown; error?: { message?: unknown } } | undefined;
  if (typeof body?.message === 'string' && body.message !== '') return body.message;
  if (typeof body?.error?.message === 'string' && body.error.message !== '') return body.error.message;
  return error.message || 'no message';
}
