import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  AnthropicProvider,
  LlmCredentialsRejectedError,
  LlmError,
  LlmRateLimitedError,
  LlmRequestRejectedError,
  LlmUnavailableError,
  OpenAiProvider,
  collectLlmStream,
  complete,
  type LlmProvider,
  type LlmRetryNotice,
  type LlmRetryOptions,
  type LlmStreamEvent,
} from '@talon/llm';
import { startAnthropicMessagesServer } from './support/anthropic-messages-server.js';
import type { LlmTestServer } from './support/llm-test-server.js';
import { startOpenAiCompatibleServer } from './support/openai-compatible-server.js';

const API_KEY = 'sk-test-key';
const FAST_RETRY: LlmRetryOptions = { maxAttempts: 4, initialDelayMs: 10, maxDelayMs: 40 };
const USER = { messages: [{ role: 'user' as const, content: 'hello' }] };
const TOOLS = [
  {
    name: 'echo',
    description: 'Echo text',
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
  },
  {
    name: 'time',
    description: 'Current time',
    parameters: { type: 'object', properties: { zone: { type: 'string' } } },
  },
];

interface ProviderSettings {
  apiKey?: string;
  retry?: LlmRetryOptions;
  idleTimeoutMs?: number;
  onRetry?: (notice: LlmRetryNotice) => void;
}

const protocols = [
  {
    protocol: 'openai',
    start: () => startOpenAiCompatibleServer({ apiKey: API_KEY }),
    create: (server: LlmTestServer, settings: ProviderSettings = {}): LlmProvider =>
      new OpenAiProvider({
        baseURL: server.baseURL,
        apiKey: API_KEY,
        model: 'gpt-test',
        retry: FAST_RETRY,
        ...settings,
      }),
  },
  {
    protocol: 'anthropic',
    start: () => startAnthropicMessagesServer({ apiKey: API_KEY }),
    create: (server: LlmTestServer, settings: ProviderSettings = {}): LlmProvider =>
      new AnthropicProvider({
        baseURL: server.baseURL,
        model: 'claude-test',
        retry: FAST_RETRY,
        ...settings,
        apiKey: settings.apiKey ?? API_KEY,
      }),
  },
];

async function events(stream: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const seen: LlmStreamEvent[] = [];
  for await (const event of stream) seen.push(event);
  return seen;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe.each(protocols)(
  '$protocol provider against a local protocol server',
  ({ protocol, start, create }) => {
    let server: LlmTestServer;
    beforeAll(async () => {
      server = await start();
    });
    afterAll(() => server.close());
    afterEach(() => expect(server.pendingReplies()).toBe(0));

    it('streams text deltas in order, then usage, then done', async () => {
      server.enqueue({ text: ['Hel', 'lo', ', world'] });
      const seen = await events(create(server).stream(USER));
      expect(seen.filter((event) => event.type === 'text_delta').map((event) => event.text)).toEqual([
        'Hel',
        'lo',
        ', world',
      ]);
      expect(seen.at(-2)?.type).toBe('usage');
      expect(seen.at(-1)).toEqual({ type: 'done', stopReason: 'end_turn' });
    });

    it('assembles two tool calls whose arguments arrive in pieces', async () => {
      server.enqueue({
        text: 'Checking.',
        argumentChunks: 5,
        toolCalls: [
          {
            id: 'call_A1',
            name: 'echo',
            arguments: { text: 'a "quoted" 引用 value', n: [1, 2, { deep: true }] },
          },
          { id: 'call_B2', name: 'time', arguments: { zone: 'Asia/Shanghai' } },
        ],
      });
      const reply = await complete(create(server), { ...USER, tools: TOOLS });
      expect(reply.text).toBe('Checking.');
      expect(reply.toolCalls).toEqual([
        {
          id: 'call_A1',
          name: 'echo',
          arguments: { text: 'a "quoted" 引用 value', n: [1, 2, { deep: true }] },
        },
        { id: 'call_B2', name: 'time', arguments: { zone: 'Asia/Shanghai' } },
      ]);
      expect(reply.stopReason).toBe('tool_calls');
      expect(reply.malformedToolCalls).toEqual([]);
    });

    it('reports arguments that are not a JSON object as a malformed tool call, keeping its id', async () => {
      server.enqueue({
        toolCalls: [
          { id: 'call_bad', name: 'echo', arguments: '{"text": "unterminated' },
          { id: 'call_arr', name: 'time', arguments: '[1]' },
        ],
      });
      const reply = await complete(create(server), { ...USER, tools: TOOLS });
      expect(reply.toolCalls).toEqual([]);
      expect(reply.malformedToolCalls).toEqual([
        {
          id: 'call_bad',
          name: 'echo',
          rawArguments: '{"text": "unterminated',
          message: expect.stringContaining('not valid JSON'),
        },
        {
          id: 'call_arr',
          name: 'time',
          rawArguments: '[1]',
          message: expect.stringContaining('must be a JSON object, not an array'),
        },
      ]);
    });

    it('reports the token usage of the call', async () => {
      server.enqueue({ text: 'ok', usage: { inputTokens: 1234, outputTokens: 56 } });
      const reply = await complete(create(server), USER);
      expect(reply.usage).toEqual({ inputTokens: 1234, outputTokens: 56 });
    });

    it('honours retry-after on 429 instead of its own backoff, then succeeds', async () => {
      server.enqueue({ text: 'after the wait' });
      server.failNext(1, { status: 429, headers: { 'retry-after': '0.3' } });
      const notices: LlmRetryNotice[] = [];
      const provider = create(server, {
        retry: { maxAttempts: 3, initialDelayMs: 20_000 },
        onRetry: (notice) => notices.push(notice),
      });
      const before = server.requests.length;
      const started = performance.now();
      const reply = await complete(provider, USER);
      const elapsed = performance.now() - started;
      expect(reply.text).toBe('after the wait');
      expect(server.requests.length - before).toBe(2);
      expect(elapsed).toBeGreaterThanOrEqual(280);
      expect(elapsed).toBeLessThan(5_000);
      expect(notices).toEqual([
        { attempt: 1, delayMs: 300, failure: { kind: 'rate_limited', retryAfterMs: 300 } },
      ]);
    });

    it('retries 500 twice with growing backoff, then succeeds', async () => {
      server.enqueue({ text: 'third time lucky' });
      server.failNext(2, { status: 500, message: 'boom' });
      const notices: LlmRetryNotice[] = [];
      const before = server.requests.length;
      const reply = await complete(create(server, { onRetry: (notice) => notices.push(notice) }), USER);
      expect(reply.text).toBe('third time lucky');
      expect(server.requests.length - before).toBe(3);
      expect(notices.map((notice) => notice.attempt)).toEqual([1, 2]);
      expect(notices[0]!.delayMs).toBeGreaterThanOrEqual(5);
      expect(notices[0]!.delayMs).toBeLessThanOrEqual(10);
      expect(notices[1]!.delayMs).toBeGreaterThanOrEqual(10);
      expect(notices[1]!.delayMs).toBeLessThanOrEqual(20);
      expect(notices[0]!.failure).toMatchObject({ kind: 'server', status: 500, reason: 'boom' });
    });

    it('gives up after the last attempt with a typed, retryable UNAVAILABLE error', async () => {
      server.failNext(4, { status: 503, message: 'down for maintenance' });
      const before = server.requests.length;
      const error = await rejection(complete(create(server), USER));
      expect(error).toBeInstanceOf(LlmUnavailableError);
      expect(server.requests.length - before).toBe(4);
      const typed = error as LlmUnavailableError;
      expect(typed.code).toBe('UNAVAILABLE');
      expect(typed.llmCode).toBe('LLM_UNAVAILABLE');
      expect(typed.retryable).toBe(true);
      expect(typed.message).toContain('after 4 attempt(s): down for maintenance');
    });

    it('rejects bad credentials at once with a clear typed error and no retries', async () => {
      const before = server.requests.length;
      const error = await rejection(complete(create(server, { apiKey: 'sk-wrong' }), USER));
      expect(server.requests.length - before).toBe(1);
      expect(error).toBeInstanceOf(LlmCredentialsRejectedError);
      const typed = error as LlmCredentialsRejectedError;
      expect(LlmError.isLlmError(typed)).toBe(true);
      expect(typed.code).toBe('POLICY_DENIED');
      expect(typed.llmCode).toBe('LLM_CREDENTIALS_REJECTED');
      expect(typed.message).toBe(
        `The API key for ${protocol} at ${server.baseURL} was rejected (HTTP 401); ` +
          'set TALON_LLM_API_KEY to a valid key for this server (and check TALON_LLM_BASE_URL).',
      );
      expect(typed.toWire()).toMatchObject({
        code: 'POLICY_DENIED',
        details: { llmCode: 'LLM_CREDENTIALS_REJECTED', status: 401 },
      });
      expect(JSON.stringify(typed.toWire())).not.toContain('sk-wrong');
    });

    it('treats 403 as rejected credentials too', async () => {
      server.failNext(1, { status: 403, message: 'no access to this model' });
      const error = await rejection(complete(create(server), USER));
      expect(error).toBeInstanceOf(LlmCredentialsRejectedError);
      expect((error as LlmError).message).toContain('(HTTP 403)');
    });

    it('fails without retrying when the server rejects the request (unknown model)', async () => {
      server.failNext(1, { status: 404, message: 'model claude-nope does not exist' });
      const before = server.requests.length;
      const error = await rejection(complete(create(server), USER));
      expect(server.requests.length - before).toBe(1);
      expect(error).toBeInstanceOf(LlmRequestRejectedError);
      expect((error as LlmError).message).toContain('model claude-nope does not exist');
      expect((error as LlmError).message).toContain('TALON_LLM_MODEL');
    });

    it('stops waiting and fails with a rate-limit error when retry-after exceeds the cap', async () => {
      server.failNext(1, { status: 429, headers: { 'retry-after': '120' } });
      const before = server.requests.length;
      const error = await rejection(complete(create(server), USER));
      expect(server.requests.length - before).toBe(1);
      expect(error).toBeInstanceOf(LlmRateLimitedError);
      expect((error as LlmError).code).toBe('RATE_LIMITED');
      expect((error as LlmError).message).toContain('wait 120 s');
    });

    it('retries an in-stream error event that arrives before any content', async () => {
      server.enqueue({ text: 'x', errorAfterFrames: 1 }, { text: 'recovered' });
      const before = server.requests.length;
      const reply = await complete(create(server), USER);
      expect(reply.text).toBe('recovered');
      expect(server.requests.length - before).toBe(2);
    });

    it('does not retry a stream that broke after text was delivered', async () => {
      // Frame 5 is past the first text delta in both protocols; the delay lets the client read it first.
      server.enqueue({ text: ['one ', 'two ', 'three ', 'four'], dropAfterFrames: 5, frameDelayMs: 20 });
      const seen: LlmStreamEvent[] = [];
      const before = server.requests.length;
      const error = await rejection(
        (async () => {
          for await (const event of create(server).stream(USER)) seen.push(event);
        })(),
      );
      expect(server.requests.length - before).toBe(1);
      expect(seen.some((event) => event.type === 'text_delta')).toBe(true);
      expect(seen.some((event) => event.type === 'done')).toBe(false);
      expect(error).toBeInstanceOf(LlmUnavailableError);
      expect((error as LlmError).message).toContain('broke off');
    });

    it('stops a stream when the signal aborts, closing the connection', async () => {
      server.enqueue({ text: ['first ', 'second ', 'third'], stallAfterFrames: 5 });
      const controller = new AbortController();
      const seen: string[] = [];
      const error = await rejection(
        (async () => {
          for await (const event of create(server).stream(USER, { signal: controller.signal })) {
            if (event.type === 'text_delta') {
              seen.push(event.text);
              controller.abort();
            }
          }
        })(),
      );
      expect(seen).toEqual(['first ']);
      expect((error as Error).name).toBe('AbortError');
      await expect(server.requests.at(-1)!.finished).resolves.toBe('aborted');
    });

    it('aborts the wait between retries', async () => {
      server.failNext(1, { status: 503, headers: { 'retry-after': '30' } });
      const controller = new AbortController();
      const started = performance.now();
      setTimeout(() => controller.abort(), 100);
      const error = await rejection(complete(create(server), USER, { signal: controller.signal }));
      expect((error as Error).name).toBe('AbortError');
      expect(performance.now() - started).toBeLessThan(2_000);
    });

    it('abandons a hung attempt after the idle timeout and retries it when nothing was delivered', async () => {
      server.enqueue({ text: 'never sent', stallAfterFrames: 1 }, { text: 'fresh' });
      const before = server.requests.length;
      const reply = await complete(create(server, { idleTimeoutMs: 150 }), USER);
      expect(reply.text).toBe('fresh');
      expect(server.requests.length - before).toBe(2);
      await expect(server.requests.at(-2)!.finished).resolves.toBe('aborted');
    });

    it('reports a stream that hangs after text as interrupted, naming the idle timeout', async () => {
      server.enqueue({ text: ['partial ', 'answer'], stallAfterFrames: 5 });
      const error = await rejection(complete(create(server, { idleTimeoutMs: 150 }), USER));
      expect(error).toBeInstanceOf(LlmUnavailableError);
      expect((error as LlmError).message).toContain('broke off: no data from the server for 150 ms');
    });

    it('does not count a slow consumer as server silence', async () => {
      server.enqueue({ text: ['a', 'b', 'c'] });
      const texts: string[] = [];
      for await (const event of create(server, { idleTimeoutMs: 100 }).stream(USER)) {
        if (event.type === 'text_delta') texts.push(event.text);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      expect(texts).toEqual(['a', 'b', 'c']);
    });

    it('closes the request when the caller stops iterating early', async () => {
      server.enqueue({ text: ['a', 'b', 'c'], stallAfterFrames: 5 });
      for await (const event of create(server).stream(USER)) {
        if (event.type === 'text_delta') break;
      }
      await expect(server.requests.at(-1)!.finished).resolves.toBe('aborted');
    });
  },
);

describe('connection failures', () => {
  it.each(protocols)(
    '$protocol: an unreachable server is retried, then reported as unavailable',
    async ({ protocol, start, create }) => {
      const server = await start();
      await server.close();
      const notices: LlmRetryNotice[] = [];
      const error = await rejection(
        collectLlmStream(
          create(server, {
            retry: { maxAttempts: 2, initialDelayMs: 5 },
            onRetry: (n) => notices.push(n),
          }).stream(USER),
        ),
      );
      expect(error).toBeInstanceOf(LlmUnavailableError);
      expect((error as LlmError).message).toContain(
        `${protocol} at ${server.baseURL} failed after 2 attempt(s)`,
      );
      expect(notices.map((notice) => notice.failure.kind)).toEqual(['connection']);
    },
  );
});
