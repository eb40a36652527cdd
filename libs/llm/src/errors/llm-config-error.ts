import { LLM_ERROR_CODES } from '../llm-error-codes.js';
import { LlmError } from './llm-error.js';

/** The LLM settings are incomplete or contradictory; the message names the variable to fix. */
export class LlmConfigError extends LlmError {
  constructor(problem: string, details: Record<string, unknown> = {}) {
    super(LLM_ERROR_CODES.CONFIG_INVALID, `Invalid LLM configuration: ${problem}`, { details });
  }
}
