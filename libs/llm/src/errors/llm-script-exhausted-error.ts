import { LLM_ERROR_CODES } from '../llm-error-codes.js';
import { LlmError } from './llm-error.js';

/** The scripted provider was called again after its last step. */
export class LlmScriptExhaustedError extends LlmError {
  constructor(stepCount: number) {
    super(
      LLM_ERROR_CODES.SCRIPT_EXHAUSTED,
      `The scripted LLM has no step left: all ${stepCount} step(s) were used. Add a step to the script.`,
      { details: { stepCount } },
    );
  }
}
