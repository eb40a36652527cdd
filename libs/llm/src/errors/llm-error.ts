import { TalonError } from '@talon/errors';
import { WIRE_CODE_BY_LLM_ERROR_CODE, type LlmErrorCode } from '../llm-error-codes.js';

/** Options of every LLM error. */
export interface LlmErrorOptions {
  /** JSON-safe facts; `llmCode` is added to them. */
  details?: Record<string, unknown>;
  retryable?: boolean;
  cause?: unknown;
}

/**
 * Base of the LLM library's errors: `code` is the wire code, `llmCode` the finer local code
 * (also carried in `details.llmCode` so it survives the wire).
 */
export class LlmError extends TalonError {
  readonly llmCode: LlmErrorCode;

  constructor(llmCode: LlmErrorCode, message: string, options: LlmErrorOptions = {}) {
    super(WIRE_CODE_BY_LLM_ERROR_CODE[llmCode], message, {
      details: { llmCode, ...options.details },
      retryable: options.retryable,
      cause: options.cause,
    });
    this.llmCode = llmCode;
  }

  /** True for any LLM error, across bundles (checks the Talon marker and a local code). */
  static isLlmError(value: unknown): value is LlmError {
    return TalonError.isInstance(value) && typeof (value as { llmCode?: unknown }).llmCode === 'string';
  }
}
