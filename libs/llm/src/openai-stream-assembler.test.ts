import { describe, expect, it } from '@jest/globals';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { OpenAiStreamAssembler } from './openai-stream-assembler.js';
import type { LlmStreamEvent } from './llm-types.js';

type Delta = ChatCompletionChunk.Choice.Delta;
const chunk = (
  delta: Delta,
  finishReason: ChatCompletionChunk.Choice['finish_reason'] = null,
): ChatCompletionChunk => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});

function run(chunks: ChatCompletionChunk[]): LlmStreamEvent[] {
  const assembler = new OpenAiStreamAssembler((problem) => new Error(problem));
  return [...chunks.flatMap((c) => assembler.accept(c)), ...assembler.finish()];
}

describe('OpenAiStreamAssembler', () => {
  it('keeps parallel calls apart when a server numbers them all index 0', () => {
    const events = run([
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'echo', arguments: '{"x":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'b', function: { name: 'time', arguments: '{}' } }] }),
      chunk({}, 'stop'),
    ]);
    expect(events).toEqual([
      { type: 'tool_call', toolCall: { id: 'a', name: 'echo', arguments: { x: 1 } } },
      { type: 'tool_call', toolCall: { id: 'b', name: 'time', arguments: {} } },
      // "stop" with tool calls is normalised, so the loop can trust the stop reason.
      { type: 'done', stopReason: 'tool_calls' },
    ]);
  });

  it('assembles fragments that carry no index', () => {
    const events = run([
      chunk({ tool_calls: [{ id: 'a', function: { name: 'echo', arguments: '{"t":' } } as never] }),
      chunk({ tool_calls: [{ function: { arguments: '"x"}' } } as never] }),
      chunk({ tool_calls: [{ id: 'b', function: { name: 'time', arguments: '{}' } } as never] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(events.slice(0, 2)).toEqual([
      { type: 'tool_call', toolCall: { id: 'a', name: 'echo', arguments: { t: 'x' } } },
      { type: 'tool_call', toolCall: { id: 'b', name: 'time', arguments: {} } },
    ]);
  });

  it('invents an id when the server sends none, and treats empty arguments as {}', () => {
    const events = run([
      chunk({ tool_calls: [{ index: 0, function: { name: 'time', arguments: '' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(events[0]).toEqual({
      type: 'tool_call',
      toolCall: { id: expect.stringMatching(/^call_[0-9a-f]{24}$/), name: 'time', arguments: {} },
    });
  });

  it('maps finish reasons and reads a trailing usage chunk', () => {
    const usageChunk: ChatCompletionChunk = {
      id: 'c',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'm',
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    };
    expect(run([chunk({ content: 'a' }), chunk({}, 'length'), usageChunk])).toEqual([
      { type: 'text_delta', text: 'a' },
      { type: 'usage', usage: { inputTokens: 7, outputTokens: 3 } },
      { type: 'done', stopReason: 'max_tokens' },
    ]);
    expect(run([chunk({}, 'content_filter')]).at(-1)).toEqual({ type: 'done', stopReason: 'content_filter' });
    expect(run([chunk({ content: 'cut off' })]).at(-1)).toEqual({ type: 'done', stopReason: 'other' });
  });

  it('refuses a tool call that never got a name', () => {
    expect(() =>
      run([chunk({ tool_calls: [{ index: 0, id: 'x', function: { arguments: '{}' } }] })]),
    ).toThrow('tool call x never received a function name');
  });
});
