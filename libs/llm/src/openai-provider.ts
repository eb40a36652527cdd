import type OpenAI from 'openai';
import type * as OpenAiSdk from 'openai';
import { LlmConfigError } from './errors/llm-config-error.js';
import { LlmProtocolError } from './errors/llm-protocol-error.js';
import type { LlmCallOptions, LlmProvider } from './llm-provider.js';
import { parseLlmRetryOptions, type LlmRetryPolicy } from './llm-retry-policy.js';
import type { LlmRequest, LlmStreamEvent } from './llm-types.js';
import { toOpenAiRequest, type OpenAiMaxTokensField } from './openai-request-mapping.js';
import { OpenAiStreamAssembler } from './openai-stream-assembler.js';
import { retryingStream } from './retrying-stream.js';
import { LazySdkClient } from './lazy-sdk-client.js';
import type { LlmConnectionOptions } from './llm-connection-options.js';

/** OpenAI's own endpoint; vLLM, Ollama and llama.cpp serve the same API under their own `/v1`. */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Per-attempt wait for the response headers. */
export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
/** How long a stream may stay silent (no chunk, no ping) before the attempt is abandoned. */
export const DEFAULT_LLM_IDLE_TIMEOUT_MS = 120_000;

/** Settings of {@link OpenAiProvider}. */
export interface OpenAiProviderOptions extends LlmConnectionOptions {
  model: string;
  /** Default {@link DEFAULT_OPENAI_BASE_URL}. Include the `/v1` path, as the SDK expects. */
  baseURL?: string;
  /** Optional for local servers; then no `Authorization` header is sent at all. */
  apiKey?: string;
  /** Default `max_completion_tokens` for api.openai.com (its newer models refuse the old name), else `max_tokens`. */
  maxTokensField?: OpenAiMaxTokensField;
  /** Sent when a request sets no `maxTokens`; by default the server decides. */
  defaultMaxTokens?: number;
}

/** Chat completions over the official `openai` SDK, streaming with tool calls and usage. */
export class OpenAiProvider implements LlmProvider {
  readonly name = 'openai';
  readonly model: string;
  readonly baseURL: string;
  private readonly sdk: LazySdkClient<typeof OpenAiSdk, OpenAI>;
  private readonly retry: LlmRetryPolicy;
  private readonly maxTokensField: OpenAiMaxTokensField;

  constructor(private readonly options: OpenAiProviderOptions) {
    if (!options.model)
      throw new LlmConfigError('the OpenAI-compatible provider needs a model name (TALON_LLM_MODEL)');
    this.model = options.model;
    this.baseURL = (options.baseURL ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
    this.retry = parseLlmRetryOptions(options.retry);
    this.maxTokensField =
      options.maxTokensField ??
      (new URL(this.baseURL).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens');
    this.sdk = new LazySdkClient(
      () => import('openai'),
      (sdk) =>
        new sdk.default({
          baseURL: this.baseURL,
          // The SDK insists on a key; for keyless local servers it gets a placeholder and the header is dropped.
          apiKey: options.apiKey || 'no-key',
          defaultHeaders: options.apiKey ? undefined : { Authorization: null },
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
    const body = toOpenAiRequest(this.model, request, this.maxTokensField);
    if (request.maxTokens === undefined && this.options.defaultMaxTokens !== undefined) {
      body[this.maxTokensField] = this.options.defaultMaxTokens;
    }
    const client = await this.sdk.client();
    const chunks = await client.chat.completions.create(body, { signal });
    const assembler = new OpenAiStreamAssembler(
      (problem) => new LlmProtocolError(this.name, this.baseURL, problem),
    );
    for await (const chunk of chunks) {
      touch();
      yield* assembler.accept(chunk);
    }
    // The SDK ends an aborted stream quietly; an aborted reply must not look complete.
    if (signal.aborted) throw signal.reason;
    yield* assembler.finish();
  }
}
