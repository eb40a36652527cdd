import { LLM_ERROR_CODES } from '../llm-error-codes.js';
import { LlmError } from './llm-error.js';

/** A script for the scripted provider could not be read or has the wrong shape. */
export class LlmScriptInvalidError extends LlmError {
  constructor(source: string, problems: readonly string[], cause?: unknown) {
    super(
      LLM_ERROR_CODES.SCRIPT_INVALID,
      `The LLM script ${source} is not valid: ${problems.join('; ')}. Fix the file (see scripted-provider docs).`,
      { details: { source, problems: [...problems] }, cause },
    );
  }
}
