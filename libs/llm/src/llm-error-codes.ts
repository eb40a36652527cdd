import { ERROR_CODES, type ErrorCode } from '@talon/contracts';

/**
 * Local error codes of the LLM library. They are finer than the wire codes and travel in
 * `details.llmCode`; the wire code (`TalonError.code`) comes from {@link WIRE_CODE_BY_LLM_ERROR_CODE}.
 */
export const LLM_ERROR_CODES = {
  /** The provider rejected the API key (HTTP 401/403). Not retried. */
  CREDENTIALS_REJECTED: 'LLM_CREDENTIALS_REJECTED',
  /** Still rate limited (HTTP 429) after every retry, or asked to wait longer than allowed. */
  RATE_LIMITED: 'LLM_RATE_LIMITED',
  /** Server errors (5xx), overload or connection failures outlasted the retries, or a stream broke. */
  UNAVAILABLE: 'LLM_UNAVAILABLE',
  /** The provider refused the request itself (400, 404 unknown model, 422, …). Not retried. */
  REQUEST_REJECTED: 'LLM_REQUEST_REJECTED',
  /** The server's reply broke the protocol (e.g. a tool call without a name). */
  PROTOCOL_VIOLATION: 'LLM_PROTOCOL_VIOLATION',
  /** The LLM settings (environment) are incomplete or contradictory. */
  CONFIG_INVALID: 'LLM_CONFIG_INVALID',
  /** A scripted-provider file could not be read or does not match the script format. */
  SCRIPT_INVALID: 'LLM_SCRIPT_INVALID',
  /** A scripted step's expectation did not hold for the incoming request. */
  SCRIPT_MISMATCH: 'LLM_SCRIPT_MISMATCH',
  /** The scripted provider was called after its last step. */
  SCRIPT_EXHAUSTED: 'LLM_SCRIPT_EXHAUSTED',
} as const;

/** One of {@link LLM_ERROR_CODES}. */
export type LlmErrorCode = (typeof LLM_ERROR_CODES)[keyof typeof LLM_ERROR_CODES];

/** The wire code each local code is reported under. */
export const WIRE_CODE_BY_LLM_ERROR_CODE: Readonly<Record<LlmErrorCode, ErrorCode>> = {
  LLM_CREDENTIALS_REJECTED: ERROR_CODES.POLICY_DENIED,
  LLM_RATE_LIMITED: ERROR_CODES.RATE_LIMITED,
  LLM_UNAVAILABLE: ERROR_CODES.UNAVAILABLE,
  LLM_REQUEST_REJECTED: ERROR_CODES.INTERNAL,
  LLM_PROTOCOL_VIOLATION: ERROR_CODES.UNAVAILABLE,
  LLM_CONFIG_INVALID: ERROR_CODES.INTERNAL,
  LLM_SCRIPT_INVALID: ERROR_CODES.INTERNAL,
  LLM_SCRIPT_MISMATCH: ERROR_CODES.INTERNAL,
  LLM_SCRIPT_EXHAUSTED: ERROR_CODES.INTERNAL,
};
