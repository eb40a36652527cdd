import { describe, expect, it } from '@jest/globals';
import { checkPromptArguments, promptAsUserMessage } from './mcp-prompt-message.js';

const prompt = {
  name: 'args-prompt',
  arguments: [
    { name: 'city', required: true },
    { name: 'state', required: false },
  ],
};

describe('MCP prompts as turn messages', () => {
  it('checks given arguments against the declared ones', () => {
    expect(checkPromptArguments(prompt, { city: 'Paris' })).toEqual({ missing: [], undeclared: [] });
    expect(checkPromptArguments(prompt, { state: 'TX', zip: '1' })).toEqual({
      missing: [{ name: 'city', required: true }],
      undeclared: ['zip'],
    });
    expect(checkPromptArguments(prompt, { city: '' }).missing).toHaveLength(1);
  });

  it('renders the messages once, labels assistant context and names media by placeholder', () => {
    const message = promptAsUserMessage({
      server: 'everything',
      name: 'p',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Describe this.' } },
        { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
        {
          role: 'user',
          content: { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=', dataBytes: 8 },
        },
      ],
    } as never);
    expect(message.split('\n\n')).toEqual([
      'Describe this.',
      '(assistant, from the prompt) Sure.',
      expect.stringMatching(/^\[image: image\/png, 8 bytes, artifact sha256:[0-9a-f]{64}\]$/),
    ]);
  });
});
