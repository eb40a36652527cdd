import { describe, expect, it } from '@jest/globals';
import { toAnthropicRequest } from './anthropic-request-mapping.js';

describe('toAnthropicRequest', () => {
  it('merges consecutive turns of one role and drops empty text', () => {
    const body = toAnthropicRequest(
      'c',
      {
        messages: [
          { role: 'user', content: 'first' },
          { role: 'user', content: '' },
          { role: 'user', content: 'second' },
          { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'echo', arguments: { a: 1 } }] },
          { role: 'tool', toolCallId: 't1', content: 'done' },
        ],
        toolChoice: 'none',
      },
      100,
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'echo', input: { a: 1 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'done' }] },
    ]);
    expect(body).not.toHaveProperty('system');
    expect(body).not.toHaveProperty('tool_choice');
  });

  it('sends the images of a tool result as image blocks next to its text', () => {
    const body = toAnthropicRequest(
      'c',
      {
        messages: [
          { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'chart', arguments: {} }] },
          {
            role: 'tool',
            toolCallId: 't1',
            content: '[image: image/png, 4 bytes, artifact sha256:ab]',
            images: [{ mimeType: 'image/png', data: 'iVBORw==' }],
          },
        ],
      },
      100,
    );
    expect(body.messages[1]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: [
            { type: 'text', text: '[image: image/png, 4 bytes, artifact sha256:ab]' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw==' } },
          ],
        },
      ],
    });
  });
});
