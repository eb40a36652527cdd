import type Anthropic from '@anthropic-ai/sdk';
import type * as AnthropicSdk from '@anthropic-ai/sdk';
import { AnthropicStreamAssembler } from './anthropic-stream-assembler.js';
import { toAnthropicRequest } from './anthropic-request-mapping.js';
import { LlmConfigError } from './errors/llm-config-error.js';
import { LlmProtocolError } from './errors/llm-protocol-error.js';
import type { LlmCallOptions, LlmProvider } from './llm-provider.js';
import { parseLlmRetryOptions, type LlmRetryPolicy } from './llm-retry-policy.js';
import type { LlmRequest, LlmStreamEvent } from './llm-types.js';
import { DEFAULT_LLM_IDLE_TIMEOUT_MS, DEFAULT_LLM_TIMEOUT_MS } from './openai-provider.js';
import { retryingStream } from './retrying-stream.js';
import { LazySdkClient } from './lazy-sdk-client.js';
import type { LlmConnectionOptions } from './llm-connection-options.js';

/** Anthropic's endpoint (the SDK appends `/v1/messages`). */
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
/** `max_tokens` is mandatory in the Messages API; this is sent when a request sets none. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/** Settings of {@link AnthropicProvider}. */
export interface AnthropicProviderOptions extends LlmConnectionOptions {
  model: string;
  apiKey: string;
  /** Default {@link DEFAULT_ANTHROPIC_BASE_URL}, without `/v1`. */
  baseURL?: string;
  /** Default {@link DEFAULT_ANTHROPIC_MAX_TOKENS}. */
  maxTokens?: number;
}

/** The Messages API over the official `@anthropic-ai/sdk`, streaming with `tool_use` blocks. */
export class AnthropicProvider implements LlmProvider {
  readonly name = 'anthropic';
  readonly model: string;
  readonly baseURL: string;
  private readonly sdk: LazySdkClient<typeof AnthropicSdk, Anthropic>;
  private readonly retry: LlmRetryPolicy;
  private readonly maxTokens: number;

  constructor(private readonly options: AnthropicProviderOptions) {
    if (!options.model)
      throw new LlmConfigError('the Anthropic provider needs a model name (TALON_LLM_MODEL)');
    if (!options.apiKey)
      throw new LlmConfigError('the Anthropic provider needs an API key (TALON_LLM_API_KEY)');
    this.maxTokens = options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
    if (!Number.isInteger(this.maxTokens) || this.maxTokens < 1) {
      throw new LlmConfigError(`maxTokens must be a positive integer, got ${options.maxTokens}`);
    }
    this.model = options.model;
    this.baseURL = (options.baseURL ?? DEFAULT_ANTHROPIC_BASE_URL).replace(/\/+$/, '');
    this.retry = parseLlmRetryOptions(options.retry);
    this.sdk = new LazySdkClient(
      () => import('@anthropic-ai/sdk'),
      (sdk) =>
        new sdk.default({
          baseURL: this.baseURL,
          apiKey: options.apiKey,
          maxRetries: 0,
          timeout: options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
        }),
    );
  }

  stream(request: LlmRequest, options: LlmCallOptions = {}): AsyncIterable<LlmStreamEvent> {
    return retryingStream({
      provider: this.name,
      baseURL: this.baseURL,
      policy: this.retry,
      signal: options.signal,
      open: (signal, touch) => this.attempt(request, signal, touch),
      idleTimeoutMs: this.options.idleTimeoutMs ?? DEFAULT_LLM_IDLE_TIMEOUT_MS,
      describeFailure: (error) => this.sdk.describeFailure(error),
      onRetry: this.options.onRetry,
    });
  }

  private async *attempt(
    request: LlmRequest,
    signal: AbortSignal,
    touch: () => void,
  ): AsyncGenerator<LlmStreamEvent> {
    const client = await this.sdk.client();
    const events = await client.messages.create(toAnthropicRequest(this.model, request, this.maxTokens), {
      signal,
    });
    const assembler = new AnthropicStreamAssembler(
      (problem) => new LlmProtocolError(this.name, this.baseURL, problem),
    );
    for await (const event of events) {
      touch();
      yield* assembler.accept(event);
    }
    // The SDK ends an aborted stream quietly; an aborted reply must not look complete.
    if (signal.aborted) throw signal.reason;
    yield* assembler.finish();
  }
}
