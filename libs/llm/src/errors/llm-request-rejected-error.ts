import { LLM_ERROR_CODES } from '../llm-error-codes.js';
import { LlmError } from './llm-error.js';

/** The provider refused the request (400, 404, 422, …): wrong model name, bad parameters, too long a prompt. */
export class LlmRequestRejectedError extends LlmError {
  constructor(provider: string, baseURL: string, status: number, serverMessage: string, cause?: unknown) {
    const hint = status === 404 ? ' Check TALON_LLM_MODEL and TALON_LLM_BASE_URL.' : '';
    super(
      LLM_ERROR_CODES.REQUEST_REJECTED,
      `${provider} at ${baseURL} rejected the request (HTTP ${status}): ${serverMessage}.${hint}`,
      { details: { provider, baseURL, status, serverMessage }, cause },
    );
  }
}
