import { describe, expect, it } from '@jest/globals';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { AnthropicStreamAssembler } from './anthropic-stream-assembler.js';

const start = {
  type: 'message_start',
  message: { usage: { input_tokens: 10, cache_read_input_tokens: 5, output_tokens: 1 } },
} as unknown as RawMessageStreamEvent;
const stop = { type: 'message_stop' } as RawMessageStreamEvent;
const delta = (stopReason: string, output: number) =>
  ({
    type: 'message_delta',
    delta: { stop_reason: stopReason },
    usage: { output_tokens: output },
  }) as unknown as RawMessageStreamEvent;

function run(events: unknown[]) {
  const assembler = new AnthropicStreamAssembler((problem) => new Error(problem));
  return [
    ...(events as RawMessageStreamEvent[]).flatMap((event) => assembler.accept(event)),
    ...assembler.finish(),
  ];
}

describe('AnthropicStreamAssembler', () => {
  it('uses the input given at block start when no input_json_delta follows, and counts cached input', () => {
    const events = run([
      start,
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { text: 'inline' } },
      },
      { type: 'content_block_stop', index: 0 },
      delta('tool_use', 9),
      stop,
    ]);
    expect(events).toEqual([
      { type: 'tool_call', toolCall: { id: 'toolu_1', name: 'echo', arguments: { text: 'inline' } } },
      { type: 'usage', usage: { inputTokens: 15, outputTokens: 9 } },
      { type: 'done', stopReason: 'tool_calls' },
    ]);
  });

  it('ignores thinking blocks and maps refusal', () => {
    const events = run([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
      { type: 'content_block_stop', index: 0 },
      delta('refusal', 2),
      stop,
    ]);
    expect(events.map((event) => event.type)).toEqual(['usage', 'done']);
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'content_filter' });
  });

  it('refuses a stream cut before message_stop and JSON for a block that is not a tool_use', () => {
    expect(() => run([start, delta('end_turn', 1)])).toThrow('the stream ended before message_stop');
    expect(() =>
      run([
        start,
        { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{' } },
      ]),
    ).toThrow('input_json_delta for block 3');
  });
});
