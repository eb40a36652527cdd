import { LLM_ERROR_CODES } from '../llm-error-codes.js';
import { LlmError } from './llm-error.js';

/** Facts about a rate limit that outlasted the retries. */
export interface LlmRateLimitedFacts {
  provider: string;
  baseURL: string;
  attempts: number;
  /** The server's last `retry-after`, when it sent one. */
  retryAfterMs?: number;
}

/** Still HTTP 429 after every attempt, or the server asked for a longer wait than allowed. */
export class LlmRateLimitedError extends LlmError {
  constructor(facts: LlmRateLimitedFacts, cause?: unknown) {
    const wait =
      facts.retryAfterMs === undefined
        ? ''
        : ` (the server asks to wait ${Math.ceil(facts.retryAfterMs / 1000)} s)`;
    super(
      LLM_ERROR_CODES.RATE_LIMITED,
      `${facts.provider} at ${facts.baseURL} is rate limiting this key after ${facts.attempts} attempt(s)${wait}; ` +
        'retry later or raise the account limit.',
      { details: { ...facts }, retryable: true, cause },
    );
  }
}
