import { describe, expect, it } from '@jest/globals';
import { parseRetryAfterMs } from './llm-failure.js';
import {
  DEFAULT_LLM_RETRY_POLICY,
  parseLlmRetryOptions,
  retryDelayMs,
  sleepUnlessAborted,
} from './llm-retry-policy.js';

describe('retry policy', () => {
  it('backs off exponentially up to the cap, with jitter within the upper half', () => {
    const policy = parseLlmRetryOptions({ initialDelayMs: 100, maxDelayMs: 1000 });
    expect([1, 2, 3, 4, 5, 6].map((retry) => retryDelayMs(policy, retry, undefined, () => 1))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect([1, 2, 3].map((retry) => retryDelayMs(policy, retry, undefined, () => 0))).toEqual([50, 100, 200]);
  });

  it('uses the server retry-after as given', () => {
    expect(retryDelayMs(DEFAULT_LLM_RETRY_POLICY, 3, 1500)).toBe(1500);
  });

  it('validates options once, naming the bad one', () => {
    expect(parseLlmRetryOptions({ maxAttempts: undefined })).toEqual(DEFAULT_LLM_RETRY_POLICY);
    expect(() => parseLlmRetryOptions({ maxAttempts: 1.5 })).toThrow(/retry.maxAttempts/);
    expect(() => parseLlmRetryOptions({ initialDelayMs: -1 })).toThrow(
      /retry.initialDelayMs must be a number ≥ 0/,
    );
  });

  it('parses retry-after in seconds, milliseconds and as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '0.25' }))).toBe(250);
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': '40', 'retry-after': '9' }))).toBe(40);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(
      3000,
    );
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '-5' }))).toBeUndefined();
    expect(parseRetryAfterMs(new Headers())).toBeUndefined();
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
  });

  it('sleeps, or rejects with the abort reason at once', async () => {
    await expect(sleepUnlessAborted(1, undefined)).resolves.toBeUndefined();
    const controller = new AbortController();
    const sleeping = sleepUnlessAborted(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    await expect(sleepUnlessAborted(1, controller.signal)).rejects.toThrow('stop');
  });
});
