import { LLM_ERROR_CODES } from '../llm-error-codes.js';
import { LlmError } from './llm-error.js';

/** A scripted step's expectation did not hold for the request it received. */
export class LlmScriptMismatchError extends LlmError {
  constructor(step: number, stepName: string | undefined, failures: readonly string[]) {
    const label = stepName === undefined ? `step ${step}` : `step ${step} ("${stepName}")`;
    super(
      LLM_ERROR_CODES.SCRIPT_MISMATCH,
      `The scripted LLM expected something else at ${label}: ${failures.join('; ')}.`,
      { details: { step, stepName, failures: [...failures] } },
    );
  }
}
