import { API_UNREACHABLE, ApiError } from './api-error.js';
import { readToken } from './token-store.js';

type Envelope<T> =
  { ok: true; data: T } | { ok: false; error: { code: string; message: string; details?: unknown } };

type Listener = (error: ApiError) => void;
const unauthenticatedListeners = new Set<Listener>();

/** Called when the API refuses the token (revoked, expired): the app goes back to the login with the reason. */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

export function bearer(token: string | null = readToken()): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** Turns a non-2xx reply into an ApiError from its envelope (or from the status when there is none). */
export async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const envelope = JSON.parse(text) as Envelope<unknown>;
    if (!envelope.ok)
      return new ApiError(
        envelope.error.code,
        envelope.error.message,
        response.status,
        envelope.error.details,
      );
  } catch {
    // Not an envelope: a proxy page or a crash; fall through.
  }
  return new ApiError('HTTP_' + response.status, text.slice(0, 300) || response.statusText, response.status);
}

function report(error: ApiError): ApiError {
  if (error.code === 'UNAUTHENTICATED') for (const listener of unauthenticatedListeners) listener(error);
  return error;
}

/** `POST /v1/rpc/<method>` with the session's token; resolves to `data` or rejects with an ApiError. */
export async function call<T>(method: string, payload: unknown = {}, token?: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/v1/rpc/${encodeURIComponent(method)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token ?? readToken()) },
      body: JSON.stringify(payload ?? {}),
    });
  } catch (cause) {
    throw new ApiError(
      API_UNREACHABLE,
      `The Talon API cannot be reached (${String(cause)}). Is the orchestrator running?`,
      0,
    );
  }
  const text = await response.text();
  let envelope: Envelope<T>;
  try {
    envelope = JSON.parse(text) as Envelope<T>;
  } catch {
    throw new ApiError('HTTP_' + response.status, text.slice(0, 300) || response.statusText, response.status);
  }
  if (!envelope.ok)
    throw report(
      new ApiError(envelope.error.code, envelope.error.message, response.status, envelope.error.details),
    );
  return envelope.data;
}

export { report as reportApiError };
