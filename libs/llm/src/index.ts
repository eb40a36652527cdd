// Provider-neutral conversation and stream types.
export {
  LLM_STOP_REASONS,
  LLM_TOOL_CHOICES,
  type LlmMessage,
  type LlmSystemMessage,
  type LlmUserMessage,
  type LlmAssistantMessage,
  type LlmToolResultMessage,
  type LlmToolCall,
  type LlmToolDefinition,
  type LlmToolChoice,
  type LlmRequest,
  type LlmUsage,
  type LlmStopReason,
  type LlmStreamEvent,
  type LlmTextDeltaEvent,
  type LlmToolCallEvent,
  type LlmMalformedToolCallEvent,
  type LlmUsageEvent,
  type LlmDoneEvent,
} from './llm-types.js';
// The provider interface and its implementations.
export type { LlmProvider, LlmCallOptions } from './llm-provider.js';
export { complete, collectLlmStream, type LlmCompletion } from './llm-completion.js';
export {
  OpenAiProvider,
  DEFAULT_OPENAI_BASE_URL,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_LLM_IDLE_TIMEOUT_MS,
  type OpenAiProviderOptions,
} from './openai-provider.js';
export type { OpenAiMaxTokensField } from './openai-request-mapping.js';
export {
  AnthropicProvider,
  DEFAULT_ANTHROPIC_BASE_URL,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  type AnthropicProviderOptions,
} from './anthropic-provider.js';
// Retries.
export {
  DEFAULT_LLM_RETRY_POLICY,
  parseLlmRetryOptions,
  type LlmRetryOptions,
  type LlmRetryPolicy,
} from './llm-retry-policy.js';
export type { LlmRetryNotice } from './retrying-stream.js';
export type { LlmFailure } from './llm-failure.js';
// Errors: wire code in `code`, local code in `llmCode`.
export { LLM_ERROR_CODES, WIRE_CODE_BY_LLM_ERROR_CODE, type LlmErrorCode } from './llm-error-codes.js';
export { LlmError, type LlmErrorOptions } from './errors/llm-error.js';
export { LlmCredentialsRejectedError } from './errors/llm-credentials-rejected-error.js';
export { LlmRateLimitedError, type LlmRateLimitedFacts } from './errors/llm-rate-limited-error.js';
export { LlmUnavailableError, type LlmUnavailableFacts } from './errors/llm-unavailable-error.js';
export { LlmRequestRejectedError } from './errors/llm-request-rejected-error.js';
export { LlmProtocolError } from './errors/llm-protocol-error.js';
export { LlmConfigError } from './errors/llm-config-error.js';
export { LlmScriptInvalidError } from './errors/llm-script-invalid-error.js';
export { LlmScriptMismatchError } from './errors/llm-script-mismatch-error.js';
export { LlmScriptExhaustedError } from './errors/llm-script-exhausted-error.js';
// The scripted provider and its file format.
export { ScriptedProvider } from './scripted-provider.js';
export {
  LlmScriptSchema,
  LlmScriptStepSchema,
  parseLlmScript,
  loadLlmScriptFile,
  type LlmScript,
  type LlmScriptStep,
  type LlmScriptExpectation,
  type LlmScriptReply,
} from './llm-script.js';
// Configuration from TALON_LLM_* and the factory.
export {
  parseLlmConfig,
  describeLlmConfig,
  LLM_ENV,
  LLM_PROVIDER_KINDS,
  type LlmProviderKind,
  type LlmConfig,
  type NoLlmConfig,
  type OpenAiLlmConfig,
  type AnthropicLlmConfig,
  type ScriptedLlmConfig,
} from './llm-config.js';
export { createLlmProvider, type CreateLlmProviderOptions } from './llm-provider-factory.js';
export type { LlmConnectionOptions } from './llm-connection-options.js';
