/**
 * Protocol test servers for the LLM providers, shared with other packages' tests (the agent loop):
 * real HTTP servers on 127.0.0.1 that stream like OpenAI chat completions or the Anthropic Messages
 * API, answer queued replies, record requests and fail on demand. See each file's header for usage.
 */
export { startOpenAiCompatibleServer } from './openai-compatible-server.js';
export { startAnthropicMessagesServer } from './anthropic-messages-server.js';
export type {
  LlmTestFailure,
  LlmTestReply,
  LlmTestReplyFactory,
  LlmTestServer,
  LlmTestServerOptions,
  LlmTestToolCall,
  RecordedLlmRequest,
} from './llm-test-server.js';
