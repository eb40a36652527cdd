import { LlmCredentialsRejectedError } from './errors/llm-credentials-rejected-error.js';
import type { LlmError } from './errors/llm-error.js';
import { LlmRateLimitedError } from './errors/llm-rate-limited-error.js';
import { LlmRequestRejectedError } from './errors/llm-request-rejected-error.js';
import { LlmUnavailableError } from './errors/llm-unavailable-error.js';
import type { LlmFailure } from './llm-failure.js';

/** Where and how a call failed, for the error message. */
export interface LlmFailureContext {
  provider: string;
  baseURL: string;
  attempts: number;
  /** Events had already been delivered when the failure happened. */
  interrupted: boolean;
}

/** Builds the typed error for a failure that will not be retried (any more). */
export function llmErrorFromFailure(
  failure: Exclude<LlmFailure, { kind: 'aborted' }>,
  context: LlmFailureContext,
  cause?: unknown,
): LlmError {
  const { provider, baseURL, attempts } = context;
  switch (failure.kind) {
    case 'credentials':
      return new LlmCredentialsRejectedError(provider, baseURL, failure.status, cause);
    case 'rejected':
      return new LlmRequestRejectedError(provider, baseURL, failure.status, failure.reason, cause);
    case 'rate_limited':
      return context.interrupted
        ? new LlmUnavailableError(
            {
              provider,
              baseURL,
              attempts,
              status: 429,
              reason: 'rate limited mid-stream',
              interrupted: true,
            },
            cause,
          )
        : new LlmRateLimitedError({ provider, baseURL, attempts, retryAfterMs: failure.retryAfterMs }, cause);
    case 'server':
      return new LlmUnavailableError(
        {
          provider,
          baseURL,
          attempts,
          status: failure.status,
          reason: failure.reason,
          interrupted: context.interrupted || undefined,
        },
        cause,
      );
    case 'connection':
      return new LlmUnavailableError(
        {
          provider,
          baseURL,
          attempts,
          reason: failure.reason,
          interrupted: context.interrupted || undefined,
        },
        cause,
      );
  }
}
