import { LLM_ERROR_CODES } from '../llm-error-codes.js';
import { LlmError } from './llm-error.js';

/** Facts about a server or connection failure. */
export interface LlmUnavailableFacts {
  provider: string;
  baseURL: string;
  attempts: number;
  /** HTTP status when there was one (5xx); absent for connection failures and mid-stream errors. */
  status?: number;
  /** What went wrong, from the server or the network layer. */
  reason: string;
  /** True when the stream broke after events were delivered (such a stream is never retried). */
  interrupted?: boolean;
}

/** The provider could not be reached or kept failing (5xx, overload, reset connection). */
export class LlmUnavailableError extends LlmError {
  constructor(facts: LlmUnavailableFacts, cause?: unknown) {
    const what = facts.interrupted
      ? `The reply stream from ${facts.provider} at ${facts.baseURL} broke off`
      : `${facts.provider} at ${facts.baseURL} failed after ${facts.attempts} attempt(s)`;
    super(LLM_ERROR_CODES.UNAVAILABLE, `${what}: ${facts.reason}. Check that the server is up and retry.`, {
      details: { ...facts },
      retryable: true,
      cause,
    });
  }
}
