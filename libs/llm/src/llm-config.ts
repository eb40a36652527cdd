import { LlmConfigError } from './errors/llm-config-error.js';

/** The environment variables read by {@link parseLlmConfig}. */
export const LLM_ENV = {
  provider: 'TALON_LLM_PROVIDER',
  baseURL: 'TALON_LLM_BASE_URL',
  apiKey: 'TALON_LLM_API_KEY',
  model: 'TALON_LLM_MODEL',
  script: 'TALON_LLM_SCRIPT',
  maxTokens: 'TALON_LLM_MAX_TOKENS',
} as const;

/** The provider kinds `TALON_LLM_PROVIDER` accepts. */
export const LLM_PROVIDER_KINDS = {
  none: 'none',
  openai: 'openai',
  anthropic: 'anthropic',
  scripted: 'scripted',
} as const;
/** One of {@link LLM_PROVIDER_KINDS}. */
export type LlmProviderKind = (typeof LLM_PROVIDER_KINDS)[keyof typeof LLM_PROVIDER_KINDS];

/** No model: the orchestrator still serves slash commands and schedule intents. */
export interface NoLlmConfig {
  readonly provider: 'none';
}
/** An OpenAI-compatible server: OpenAI, vLLM, Ollama, llama.cpp. */
export interface OpenAiLlmConfig {
  readonly provider: 'openai';
  /** Absent: OpenAI's own endpoint. */
  readonly baseURL?: string;
  /** Optional for local servers. */
  readonly apiKey?: string;
  readonly model: string;
  readonly maxTokens?: number;
}
/** The Anthropic Messages API. */
export interface AnthropicLlmConfig {
  readonly provider: 'anthropic';
  /** Absent: Anthropic's own endpoint. */
  readonly baseURL?: string;
  readonly apiKey: string;
  readonly model: string;
  readonly maxTokens?: number;
}
/** The scripted provider reading a JSON script. */
export interface ScriptedLlmConfig {
  readonly provider: 'scripted';
  readonly file: string;
}
/** Which model Talon talks to, parsed once at start. */
export type LlmConfig = NoLlmConfig | OpenAiLlmConfig | AnthropicLlmConfig | ScriptedLlmConfig;

/**
 * Reads the LLM settings from the environment and validates them, failing with a message that names
 * the variable to fix. Nothing set means `none`; other TALON_LLM_* variables without a provider are an
 * error rather than silently ignored.
 */
export function parseLlmConfig(env: Readonly<Record<string, string | undefined>> = process.env): LlmConfig {
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const kind = read(LLM_ENV.provider)?.toLowerCase();
  if (kind === undefined) {
    const stray = Object.values(LLM_ENV).filter((name) => read(name) !== undefined);
    if (stray.length > 0) {
      throw new LlmConfigError(
        `${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set but ${LLM_ENV.provider} is not; set it to openai, anthropic, scripted or none`,
      );
    }
    return { provider: 'none' };
  }
  switch (kind) {
    case 'none':
      return { provider: 'none' };
    case 'scripted': {
      const file = read(LLM_ENV.script);
      if (file === undefined)
        throw new LlmConfigError(
          `${LLM_ENV.provider}=scripted needs ${LLM_ENV.script}, the path of a JSON script`,
        );
      return { provider: 'scripted', file };
    }
    case 'openai':
    case 'anthropic': {
      const model = read(LLM_ENV.model);
      if (model === undefined)
        throw new LlmConfigError(
          `${LLM_ENV.provider}=${kind} needs ${LLM_ENV.model} (the model name the server knows)`,
        );
      const baseURL = parseBaseURL(read(LLM_ENV.baseURL));
      const apiKey = read(LLM_ENV.apiKey);
      const maxTokens = parseMaxTokens(read(LLM_ENV.maxTokens));
      const optional = { ...(baseURL && { baseURL }), ...(maxTokens && { maxTokens }) };
      if (kind === 'anthropic') {
        if (apiKey === undefined)
          throw new LlmConfigError(`${LLM_ENV.provider}=anthropic needs ${LLM_ENV.apiKey}`);
        return { provider: 'anthropic', apiKey, model, ...optional };
      }
      if (apiKey === undefined && (baseURL === undefined || new URL(baseURL).hostname === 'api.openai.com')) {
        throw new LlmConfigError(
          `OpenAI's own API needs ${LLM_ENV.apiKey}; for a local server (vLLM, Ollama, llama.cpp) set ${LLM_ENV.baseURL}, e.g. http://127.0.0.1:11434/v1`,
        );
      }
      return { provider: 'openai', model, ...(apiKey && { apiKey }), ...optional };
    }
    default:
      throw new LlmConfigError(`${LLM_ENV.provider} is "${kind}"; use openai, anthropic, scripted or none`);
  }
}

/** A one-line description for start-up logs; never contains the key. */
export function describeLlmConfig(config: LlmConfig): string {
  switch (config.provider) {
    case 'none':
      return 'no model configured (slash commands only)';
    case 'scripted':
      return `scripted model from ${config.file}`;
    default:
      return `${config.provider} model ${config.model} at ${config.baseURL ?? 'the default endpoint'} (${config.apiKey ? 'API key set' : 'no API key'})`;
  }
}

function parseBaseURL(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new LlmConfigError(
      `${LLM_ENV.baseURL} "${value}" is not a URL; write it like http://127.0.0.1:8000/v1`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LlmConfigError(`${LLM_ENV.baseURL} must be an http or https URL, got ${url.protocol}`);
  }
  return value.replace(/\/+$/, '');
}

function parseMaxTokens(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new LlmConfigError(`${LLM_ENV.maxTokens} must be a positive integer, got "${value}"`);
  return parsed;
}
