import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { complete, createLlmProvider, LlmScriptMismatchError, parseLlmConfig } from '@talon/llm';

const SCRIPT = fileURLToPath(new URL('./fixtures/echo-conversation.json', import.meta.url));
const TOOLS = [{ name: 'echo', description: 'Echo', parameters: { type: 'object' } }];

describe('scripted provider configured from the environment', () => {
  it('plays the example script through createLlmProvider', async () => {
    const provider = createLlmProvider(
      parseLlmConfig({ TALON_LLM_PROVIDER: 'scripted', TALON_LLM_SCRIPT: SCRIPT }),
    )!;
    expect(provider).toMatchObject({ name: 'scripted', model: 'scripted-echo-demo' });
    const user = { role: 'user' as const, content: 'please echo hello' };
    const first = await complete(provider, { messages: [user], tools: TOOLS });
    expect(first.toolCalls).toEqual([{ id: 'call_echo_1', name: 'echo', arguments: { text: 'hello' } }]);
    const second = await complete(provider, {
      messages: [
        user,
        { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'call_echo_1', content: 'hello' },
      ],
      tools: TOOLS,
    });
    expect(second).toMatchObject({
      text: 'The echo tool answered: hello.',
      usage: { inputTokens: 120, outputTokens: 8 },
      stopReason: 'end_turn',
    });
  });

  it('fails with a mismatch naming the step when the tool list is wrong', async () => {
    const provider = createLlmProvider({ provider: 'scripted', file: SCRIPT })!;
    const error = await complete(provider, {
      messages: [{ role: 'user', content: 'please echo' }],
      tools: [...TOOLS, { name: 'shell', description: 'Shell', parameters: { type: 'object' } }],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmScriptMismatchError);
    expect((error as Error).message).toBe(
      'The scripted LLM expected something else at step 1 ("calls echo"): expected tools shell not to be offered, but they are.',
    );
  });
});
