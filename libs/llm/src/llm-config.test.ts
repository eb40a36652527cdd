import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { AnthropicProvider } from './anthropic-provider.js';
import { LlmConfigError } from './errors/llm-config-error.js';
import { describeLlmConfig, parseLlmConfig } from './llm-config.js';
import { createLlmProvider } from './llm-provider-factory.js';
import { OpenAiProvider } from './openai-provider.js';
import { ScriptedProvider } from './scripted-provider.js';

describe('parseLlmConfig', () => {
  it('is none when nothing is set (slash commands still work)', () => {
    expect(parseLlmConfig({})).toEqual({ provider: 'none' });
    expect(parseLlmConfig({ TALON_LLM_PROVIDER: '  ', PATH: '/bin' })).toEqual({ provider: 'none' });
    expect(parseLlmConfig({ TALON_LLM_PROVIDER: 'none', TALON_LLM_MODEL: 'ignored' })).toEqual({
      provider: 'none',
    });
  });

  it('refuses model settings without a provider instead of ignoring them', () => {
    expect(() => parseLlmConfig({ TALON_LLM_MODEL: 'gpt-4o', TALON_LLM_API_KEY: 'k' })).toThrow(
      'TALON_LLM_API_KEY, TALON_LLM_MODEL are set but TALON_LLM_PROVIDER is not',
    );
  });

  it('reads an OpenAI-compatible local server without a key', () => {
    expect(
      parseLlmConfig({
        TALON_LLM_PROVIDER: 'OpenAI',
        TALON_LLM_BASE_URL: 'http://127.0.0.1:11434/v1/',
        TALON_LLM_MODEL: 'qwen3',
      }),
    ).toEqual({
      provider: 'openai',
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'qwen3',
    });
  });

  it("requires a key for OpenAI's own endpoint and a model for every remote provider", () => {
    expect(() => parseLlmConfig({ TALON_LLM_PROVIDER: 'openai', TALON_LLM_MODEL: 'gpt-4o' })).toThrow(
      /needs TALON_LLM_API_KEY; for a local server/,
    );
    expect(() =>
      parseLlmConfig({
        TALON_LLM_PROVIDER: 'openai',
        TALON_LLM_BASE_URL: 'https://api.openai.com/v1',
        TALON_LLM_MODEL: 'm',
      }),
    ).toThrow(LlmConfigError);
    expect(() => parseLlmConfig({ TALON_LLM_PROVIDER: 'anthropic', TALON_LLM_API_KEY: 'k' })).toThrow(
      /needs TALON_LLM_MODEL/,
    );
    expect(() => parseLlmConfig({ TALON_LLM_PROVIDER: 'anthropic', TALON_LLM_MODEL: 'claude' })).toThrow(
      /needs TALON_LLM_API_KEY/,
    );
  });

  it('reads Anthropic with max tokens, and refuses bad values', () => {
    expect(
      parseLlmConfig({
        TALON_LLM_PROVIDER: 'anthropic',
        TALON_LLM_API_KEY: 'k',
        TALON_LLM_MODEL: 'claude',
        TALON_LLM_MAX_TOKENS: '2048',
      }),
    ).toEqual({
      provider: 'anthropic',
      apiKey: 'k',
      model: 'claude',
      maxTokens: 2048,
    });
    const base = { TALON_LLM_PROVIDER: 'anthropic', TALON_LLM_API_KEY: 'k', TALON_LLM_MODEL: 'c' };
    expect(() => parseLlmConfig({ ...base, TALON_LLM_MAX_TOKENS: '1.5' })).toThrow(
      /TALON_LLM_MAX_TOKENS must be a positive integer/,
    );
    expect(() => parseLlmConfig({ ...base, TALON_LLM_BASE_URL: 'localhost:8000' })).toThrow(
      /must be an http or https URL/,
    );
    expect(() => parseLlmConfig({ ...base, TALON_LLM_BASE_URL: 'not a url' })).toThrow(/is not a URL/);
  });

  it('reads the scripted provider and refuses unknown kinds', () => {
    expect(parseLlmConfig({ TALON_LLM_PROVIDER: 'scripted', TALON_LLM_SCRIPT: '/tmp/s.json' })).toEqual({
      provider: 'scripted',
      file: '/tmp/s.json',
    });
    expect(() => parseLlmConfig({ TALON_LLM_PROVIDER: 'scripted' })).toThrow(/needs TALON_LLM_SCRIPT/);
    expect(() => parseLlmConfig({ TALON_LLM_PROVIDER: 'gemini' })).toThrow(
      'TALON_LLM_PROVIDER is "gemini"; use openai, anthropic, scripted or none',
    );
  });

  it('describes a config for logs without the key', () => {
    const text = describeLlmConfig({ provider: 'anthropic', apiKey: 'sk-secret', model: 'claude' });
    expect(text).toBe('anthropic model claude at the default endpoint (API key set)');
    expect(text).not.toContain('sk-secret');
  });
});

describe('createLlmProvider', () => {
  it('builds the provider each config names', () => {
    expect(createLlmProvider({ provider: 'none' })).toBeUndefined();
    const openai = createLlmProvider({ provider: 'openai', baseURL: 'http://127.0.0.1:8000/v1', model: 'm' });
    expect(openai).toBeInstanceOf(OpenAiProvider);
    expect(openai).toMatchObject({ name: 'openai', model: 'm', baseURL: 'http://127.0.0.1:8000/v1' });
    expect(createLlmProvider({ provider: 'anthropic', apiKey: 'k', model: 'c' })).toMatchObject({
      name: 'anthropic',
      baseURL: 'https://api.anthropic.com',
    });
    expect(createLlmProvider({ provider: 'anthropic', apiKey: 'k', model: 'c' })).toBeInstanceOf(
      AnthropicProvider,
    );
    const file = join(mkdtempSync(join(tmpdir(), 'talon-llm-config-')), 'script.json');
    writeFileSync(file, JSON.stringify({ model: 'demo', steps: [{ reply: { text: 'hi' } }] }));
    expect(createLlmProvider({ provider: 'scripted', file })).toBeInstanceOf(ScriptedProvider);
  });

  it('fails at creation for a bad script or bad retry options', () => {
    expect(() => createLlmProvider({ provider: 'scripted', file: '/nonexistent/talon-script.json' })).toThrow(
      /cannot read the file/,
    );
    expect(() =>
      createLlmProvider({ provider: 'openai', apiKey: 'k', model: 'm' }, { retry: { maxAttempts: 0 } }),
    ).toThrow(/maxAttempts must be an integer/);
  });
});
