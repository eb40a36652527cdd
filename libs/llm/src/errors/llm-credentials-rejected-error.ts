import { LLM_ERROR_CODES } from '../llm-error-codes.js';
import { LlmError } from './llm-error.js';

/** The provider answered 401 or 403: the key is wrong, expired, or lacks access. Never retried. */
export class LlmCredentialsRejectedError extends LlmError {
  constructor(provider: string, baseURL: string, status: number, cause?: unknown) {
    super(
      LLM_ERROR_CODES.CREDENTIALS_REJECTED,
      `The API key for ${provider} at ${baseURL} was rejected (HTTP ${status}); ` +
        'set TALON_LLM_API_KEY to a valid key for this server (and check TALON_LLM_BASE_URL).',
      { details: { provider, baseURL, status }, cause },
    );
  }
}
