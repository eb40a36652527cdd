import { AnthropicProvider } from './anthropic-provider.js';
import type { LlmConfig } from './llm-config.js';
import type { LlmProvider } from './llm-provider.js';
import type { LlmRetryOptions } from './llm-retry-policy.js';
import { OpenAiProvider } from './openai-provider.js';
import type { LlmRetryNotice } from './retrying-stream.js';
import { ScriptedProvider } from './scripted-provider.js';

/** Settings that do not come from the environment. */
export interface CreateLlmProviderOptions {
  retry?: LlmRetryOptions;
  timeoutMs?: number;
  idleTimeoutMs?: number;
  onRetry?: (notice: LlmRetryNotice) => void;
}

/**
 * Builds the provider a config describes; `undefined` for `none`. A scripted config reads and
 * validates its script file here, so a bad script fails at start.
 */
export function createLlmProvider(
  config: LlmConfig,
  options: CreateLlmProviderOptions = {},
): LlmProvider | undefined {
  switch (config.provider) {
    case 'none':
      return undefined;
    case 'scripted':
      return ScriptedProvider.fromFile(config.file);
    case 'openai':
      return new OpenAiProvider({
        model: config.model,
        baseURL: config.baseURL,
        apiKey: config.apiKey,
        defaultMaxTokens: config.maxTokens,
        ...options,
      });
    case 'anthropic':
      return new AnthropicProvider({
        model: config.model,
        baseURL: config.baseURL,
        apiKey: config.apiKey,
        maxTokens: config.maxTokens,
        ...options,
      });
  }
}
