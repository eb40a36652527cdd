import { LLM_ERROR_CODES } from '../llm-error-codes.js';
import { LlmError } from './llm-error.js';

/** The server's stream did not follow the protocol; usually an incompatible "compatible" server. */
export class LlmProtocolError extends LlmError {
  constructor(provider: string, baseURL: string, problem: string) {
    super(
      LLM_ERROR_CODES.PROTOCOL_VIOLATION,
      `${provider} at ${baseURL} sent a reply that breaks the protocol: ${problem}. ` +
        'Check that the server really speaks this API (TALON_LLM_PROVIDER).',
      { details: { provider, baseURL, problem } },
    );
  }
}
