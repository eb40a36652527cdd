import { ERROR_CODES } from '@talon/contracts';
import type { UnauthenticatedError } from './errors/unauthenticated-error.js';

/** How often an open stream's token is verified again (a revocation ends the stream within about a second). */
export const STREAM_RECHECK_MS = 1000;

/** Options of {@link watchStreamAuthorization}. */
export interface StreamAuthorizationOptions {
  /** Verifies the stream's token again; rejects with an UNAUTHENTICATED error once it no longer holds. */
  check: () => Promise<unknown>;
  /** Time between two checks. Default: {@link STREAM_RECHECK_MS}. */
  everyMs?: number;
  /** Called once, when a check is refused: end the stream with this error. */
  onRefused: (error: UnauthenticatedError) => void;
}

/**
 * Keeps a long-lived stream (server-sent events, a gRPC server stream) bound to its token: a token that
 * expires or is revoked while the stream is open ends it, within `everyMs`, instead of leaving it open for
 * as long as the connection lasts. A check that fails for another reason (the database briefly away)
 * keeps the stream; the next check decides. Returns the function that stops watching.
 */
export function watchStreamAuthorization(options: StreamAuthorizationOptions): () => void {
  let stopped = false;
  let checking = false;
  const timer = setInterval(() => {
    if (checking || stopped) return;
    checking = true;
    options
      .check()
      .catch((error: unknown) => {
        if (stopped || (error as { code?: unknown }).code !== ERROR_CODES.UNAUTHENTICATED) return;
        stop();
        options.onRefused(error as UnauthenticatedError);
      })
      .finally(() => (checking = false));
  }, options.everyMs ?? STREAM_RECHECK_MS);
  timer.unref();
  const stop = (): void => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}

/** What a stream ended by {@link watchStreamAuthorization} tells its client: the refusal, and how to go on. */
export function streamRefusalMessage(error: UnauthenticatedError): string {
  return `${error.message} The stream is closed; open it again with a valid token.`;
}
