import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AnthropicProvider, OpenAiProvider, type LlmProvider } from '@talon/llm';
import {
  startAnthropicMessagesServer,
  startOpenAiCompatibleServer,
  type LlmTestServer,
} from '../../llm/test/support/index.js';
import {
  activeSkill,
  buildRunner,
  FixedSkillAdvisor,
  MutableToolSource,
  RecordingToolCaller,
  toolDef,
  typesOf,
} from './support/agent-fixtures.js';

interface Protocol {
  name: string;
  start: () => Promise<LlmTestServer>;
  provider: (server: LlmTestServer) => LlmProvider;
  /** The tool names offered in a recorded request body. */
  offered: (body: Record<string, unknown>) => string[];
  /** The tool results in a recorded request body, as [call id, content]. */
  results: (body: Record<string, unknown>) => [string, string][];
}

type Json = Record<string, unknown>;
const PROTOCOLS: Protocol[] = [
  {
    name: 'OpenAI-compatible',
    start: () => startOpenAiCompatibleServer({ apiKey: 'sk-local' }),
    provider: (server) =>
      new OpenAiProvider({
        baseURL: server.baseURL,
        apiKey: 'sk-local',
        model: 'qwen-test',
        retry: { initialDelayMs: 1 },
      }),
    offered: (body) =>
      ((body.tools as Json[] | undefined) ?? []).map((tool) => (tool.function as Json).name as string),
    results: (body) =>
      (body.messages as Json[])
        .filter((message) => message.role === 'tool')
        .map((message) => [message.tool_call_id as string, message.content as string]),
  },
  {
    name: 'Anthropic',
    start: () => startAnthropicMessagesServer({ apiKey: 'sk-ant-test' }),
    provider: (server) =>
      new AnthropicProvider({
        baseURL: server.baseURL,
        apiKey: 'sk-ant-test',
        model: 'claude-test',
        retry: { initialDelayMs: 1 },
      }),
    offered: (body) => ((body.tools as Json[] | undefined) ?? []).map((tool) => tool.name as string),
    results: (body) =>
      (body.messages as Json[])
        .flatMap((message) => (Array.isArray(message.content) ? (message.content as Json[]) : []))
        .filter((block) => block.type === 'tool_result')
        .map((block) => [
          block.tool_use_id as string,
          typeof block.content === 'string' ? block.content : JSON.stringify(block.content),
        ]),
  },
];

describe.each(PROTOCOLS)('the loop through the real $name provider', (protocol) => {
  let server: LlmTestServer;
  beforeAll(async () => {
    server = await protocol.start();
  });
  afterAll(() => server.close());

  it('runs a full turn with two tool calls', async () => {
    server.enqueue(
      {
        text: 'Running both.',
        toolCalls: [
          { id: 'call_a', name: 'echo', arguments: { text: 'alpha' } },
          { id: 'call_b', name: 'echo', arguments: { text: 'beta' } },
        ],
      },
      (body) => ({
        text: `Results: ${protocol
          .results(body)
          .map(([, content]) => content)
          .join(' | ')}`,
      }),
    );
    const t = buildRunner({ provider: protocol.provider(server), caller: new RecordingToolCaller(20) });
    const result = await t.runner.run({
      sessionId: 'int-1',
      message: 'echo alpha and beta',
      onEvent: t.onEvent,
    });

    expect(result.reason).toBe('final_answer');
    expect(result.content).toContain('alpha');
    expect(result.content).toContain('beta');
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(t.caller.calls.map((entry) => entry.call.params)).toEqual([{ text: 'alpha' }, { text: 'beta' }]);
    const second = server.requests.at(-1)!.body;
    expect(protocol.results(second).map(([id]) => id)).toEqual(['call_a', 'call_b']);
    expect(JSON.stringify(second)).toContain('untrusted data');
    expect(typesOf(t.events).filter((type) => type === 'tool_call_finished')).toHaveLength(2);
    expect((await t.sessions.load('int-1')).map((stored) => stored.message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
  });

  it('narrows the tools for an installed skill, refuses the removed one at dispatch, and offers a tool installed mid-turn', async () => {
    const tools = new MutableToolSource([
      toolDef('read_file', ['read_filesystem']),
      toolDef('shell', ['execute_code']),
      toolDef('install'),
    ]);
    const caller = new RecordingToolCaller();
    caller.hooks.install = () => tools.add(toolDef('time_now'));
    const skills = new FixedSkillAdvisor(
      [activeSkill('notes', 'INSTALLED')],
      new Set(['read_file', 'install', 'time_now']),
    );
    server.enqueue(
      {
        toolCalls: [
          { id: 'call_s', name: 'shell', arguments: { text: 'id' } },
          { id: 'call_i', name: 'install', arguments: {} },
        ],
      },
      { toolCalls: [{ id: 'call_t', name: 'time_now', arguments: {} }] },
      { text: 'Done.' },
    );
    const first = server.requests.length;
    const t = buildRunner({ provider: protocol.provider(server), tools, caller, skills });
    const result = await t.runner.run({ sessionId: 'int-2', message: 'take notes', onEvent: t.onEvent });

    expect(result).toMatchObject({ reason: 'final_answer', content: 'Done.', iterations: 3 });
    const bodies = server.requests.slice(first).map((request) => request.body);
    expect(protocol.offered(bodies[0]!).sort()).toEqual(['install', 'read_file']);
    expect(protocol.offered(bodies[1]!).sort()).toEqual(['install', 'read_file', 'time_now']);
    const refused = protocol.results(bodies[1]!).find(([id]) => id === 'call_s');
    expect(refused![1]).toContain('removed by skill attenuation');
    expect(caller.calls.map((entry) => entry.call.tool)).toEqual(['install', 'time_now']);
  });
});
