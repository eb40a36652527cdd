import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { complete, OpenAiProvider, type LlmMessage } from '@talon/llm';
import type { LlmTestServer } from './support/llm-test-server.js';
import { startOpenAiCompatibleServer } from './support/openai-compatible-server.js';

const TOOLS = [
  {
    name: 'echo',
    description: 'Echo text',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
];

describe('OpenAI provider: request shape on the wire', () => {
  let server: LlmTestServer;
  beforeAll(async () => {
    server = await startOpenAiCompatibleServer();
  });
  afterAll(() => server.close());

  it('sends tool results back as tool messages tied to the streamed call ids', async () => {
    const provider = new OpenAiProvider({
      baseURL: server.baseURL,
      apiKey: 'sk-local',
      model: 'qwen-test',
      retry: { initialDelayMs: 1 },
    });
    server.enqueue({
      toolCalls: [
        { id: 'call_x1', name: 'echo', arguments: { text: 'one' } },
        { id: 'call_x2', name: 'echo', arguments: { text: 'two' } },
      ],
    });
    const history: LlmMessage[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Echo one and two' },
    ];
    const first = await complete(provider, { messages: history, tools: TOOLS, maxTokens: 300 });
    server.enqueue({ text: 'Done: one, two.' });
    const second = await complete(provider, {
      messages: [
        ...history,
        { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: first.toolCalls[0]!.id, content: 'one' },
        { role: 'tool', toolCallId: first.toolCalls[1]!.id, content: 'error: too long', isError: true },
      ],
      tools: TOOLS,
    });
    expect(second.text).toBe('Done: one, two.');

    const [firstBody, secondBody] = server.requests.slice(-2).map((request) => request.body);
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer sk-local');
    expect(firstBody).toMatchObject({
      model: 'qwen-test',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 300,
      tool_choice: 'auto',
      tools: [
        {
          type: 'function',
          function: { name: 'echo', description: 'Echo text', parameters: TOOLS[0]!.parameters },
        },
      ],
    });
    expect(secondBody!.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Echo one and two' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_x1', type: 'function', function: { name: 'echo', arguments: '{"text":"one"}' } },
          { id: 'call_x2', type: 'function', function: { name: 'echo', arguments: '{"text":"two"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_x1', content: 'one' },
      { role: 'tool', tool_call_id: 'call_x2', content: 'error: too long' },
    ]);
    expect(secondBody).not.toHaveProperty('max_tokens');
  });

  it('sends no Authorization header when no key is configured (local servers)', async () => {
    const provider = new OpenAiProvider({ baseURL: server.baseURL, model: 'llama-test' });
    server.enqueue({ text: 'hi' });
    await complete(provider, { messages: [{ role: 'user', content: 'hi' }], toolChoice: 'none' });
    const request = server.requests.at(-1)!;
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).not.toHaveProperty('tools');
    expect(request.body).not.toHaveProperty('tool_choice');
  });

  it('uses max_completion_tokens for api.openai.com and the configured default cap', async () => {
    const provider = new OpenAiProvider({
      baseURL: server.baseURL,
      model: 'm',
      maxTokensField: 'max_completion_tokens',
      defaultMaxTokens: 77,
    });
    server.enqueue({ text: 'x' });
    await complete(provider, { messages: [{ role: 'user', content: 'x' }] });
    expect(server.requests.at(-1)!.body).toMatchObject({ max_completion_tokens: 77 });
    expect(server.requests.at(-1)!.body).not.toHaveProperty('max_tokens');
  });

  it('is refused by the server when a tool call is left unanswered (the server checks like OpenAI does)', async () => {
    const provider = new OpenAiProvider({ baseURL: server.baseURL, model: 'm' });
    await expect(
      complete(provider, {
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'call_lost', name: 'echo', arguments: {} }] },
          { role: 'user', content: 'and?' },
        ],
      }),
    ).rejects.toThrow(/call_lost/);
  });
});
