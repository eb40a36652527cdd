import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AnthropicProvider, complete, type LlmMessage } from '@talon/llm';
import { startAnthropicMessagesServer } from './support/anthropic-messages-server.js';
import type { LlmTestServer } from './support/llm-test-server.js';

const TOOLS = [
  {
    name: 'echo',
    description: 'Echo text',
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
  },
  { name: 'time', description: 'Current time', parameters: { properties: {} } },
];

describe('Anthropic provider: request shape on the wire', () => {
  let server: LlmTestServer;
  beforeAll(async () => {
    server = await startAnthropicMessagesServer({ apiKey: 'sk-ant-test' });
  });
  afterAll(() => server.close());

  it('sends tool_result blocks for the streamed tool_use ids in the next user turn', async () => {
    const provider = new AnthropicProvider({
      baseURL: server.baseURL,
      apiKey: 'sk-ant-test',
      model: 'claude-test',
    });
    server.enqueue({
      text: 'Let me run both.',
      toolCalls: [
        { id: 'toolu_01', name: 'echo', arguments: { text: 'one' } },
        { id: 'toolu_02', name: 'time', arguments: {} },
      ],
    });
    const history: LlmMessage[] = [
      { role: 'system', content: 'Workspace prompt.' },
      { role: 'system', content: '<skill name="x">body</skill>' },
      { role: 'user', content: 'Echo one and tell the time' },
    ];
    const first = await complete(provider, { messages: history, tools: TOOLS, toolChoice: 'required' });
    expect(first.toolCalls.map((call) => call.id)).toEqual(['toolu_01', 'toolu_02']);
    server.enqueue({ text: 'one; it is noon.' });
    await complete(provider, {
      messages: [
        ...history,
        { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'toolu_01', content: 'one' },
        { role: 'tool', toolCallId: 'toolu_02', content: 'clock unavailable', isError: true },
        { role: 'user', content: 'Also, be brief.' },
      ],
      tools: TOOLS,
      maxTokens: 512,
    });

    const [firstBody, secondBody] = server.requests.slice(-2).map((request) => request.body);
    expect(firstBody).toMatchObject({
      model: 'claude-test',
      max_tokens: 4096,
      stream: true,
      system: 'Workspace prompt.\n\n<skill name="x">body</skill>',
      tool_choice: { type: 'any' },
      tools: [
        { name: 'echo', description: 'Echo text', input_schema: TOOLS[0]!.parameters },
        { name: 'time', description: 'Current time', input_schema: { type: 'object', properties: {} } },
      ],
    });
    expect(firstBody!.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Echo one and tell the time' }] },
    ]);
    expect(secondBody!.max_tokens).toBe(512);
    expect(secondBody!.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Echo one and tell the time' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me run both.' },
          { type: 'tool_use', id: 'toolu_01', name: 'echo', input: { text: 'one' } },
          { type: 'tool_use', id: 'toolu_02', name: 'time', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01', content: 'one' },
          { type: 'tool_result', tool_use_id: 'toolu_02', content: 'clock unavailable', is_error: true },
          { type: 'text', text: 'Also, be brief.' },
        ],
      },
    ]);
  });

  it('honours a configured max_tokens default', async () => {
    const provider = new AnthropicProvider({
      baseURL: server.baseURL,
      apiKey: 'sk-ant-test',
      model: 'claude-test',
      maxTokens: 99,
    });
    server.enqueue({ text: 'ok' });
    const reply = await complete(provider, { messages: [{ role: 'user', content: 'hi' }] });
    expect(reply.text).toBe('ok');
    expect(server.requests.at(-1)!.body.max_tokens).toBe(99);
  });

  it('reports overload (529) as unavailable after the retries', async () => {
    const provider = new AnthropicProvider({
      baseURL: server.baseURL,
      apiKey: 'sk-ant-test',
      model: 'c',
      retry: { maxAttempts: 2, initialDelayMs: 1 },
    });
    server.failNext(2, { status: 529, message: 'Overloaded' });
    await expect(complete(provider, { messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      llmCode: 'LLM_UNAVAILABLE',
      details: expect.objectContaining({ status: 529, attempts: 2 }),
    });
  });
});
