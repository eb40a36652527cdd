import type { LlmRetryOptions } from './llm-retry-policy.js';
import type { LlmRetryNotice } from './retrying-stream.js';

/** How a network provider talks to its server; shared by the OpenAI-compatible and Anthropic providers. */
export interface LlmConnectionOptions {
  retry?: LlmRetryOptions;
  /** Default {@link DEFAULT_LLM_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** A stream silent for this long counts as a failed connection. Default {@link DEFAULT_LLM_IDLE_TIMEOUT_MS}. */
  idleTimeoutMs?: number;
  /** Called before each retry (for logs). */
  onRetry?: (notice: LlmRetryNotice) => void;
}
