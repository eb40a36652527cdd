import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { LlmScriptExhaustedError } from './errors/llm-script-exhausted-error.js';
import { LlmScriptInvalidError } from './errors/llm-script-invalid-error.js';
import { LlmScriptMismatchError } from './errors/llm-script-mismatch-error.js';
import { collectLlmStream, complete } from './llm-completion.js';
import type { LlmMessage, LlmStreamEvent } from './llm-types.js';
import { ScriptedProvider } from './scripted-provider.js';

const ECHO = { name: 'echo', description: 'Echo', parameters: { type: 'object' } };
const SHELL = { name: 'shell', description: 'Shell', parameters: { type: 'object' } };

const conversation = {
  model: 'demo-model',
  steps: [
    {
      name: 'asks for echo',
      expect: {
        lastUserMessageContains: 'say hi',
        systemContains: 'terse',
        toolsInclude: ['echo'],
        toolsExclude: ['shell'],
      },
      reply: {
        text: 'Calling echo.',
        toolCalls: [{ id: 'call_e1', name: 'echo', arguments: { text: 'hi' } }],
      },
    },
    {
      name: 'answers with the echo result',
      expect: { toolResults: [{ callId: 'call_e1', contains: 'hi' }] },
      reply: { text: ['The tool said ', 'hi', '.'], usage: { inputTokens: 40, outputTokens: 3 } },
    },
  ],
};

describe('ScriptedProvider', () => {
  it('plays a conversation step by step when every expectation holds', async () => {
    const provider = new ScriptedProvider(conversation);
    expect(provider.model).toBe('demo-model');
    const history: LlmMessage[] = [
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'please say hi' },
    ];
    const first = await complete(provider, { messages: history, tools: [ECHO] });
    expect(first).toMatchObject({ text: 'Calling echo.', stopReason: 'tool_calls' });
    expect(first.toolCalls).toEqual([{ id: 'call_e1', name: 'echo', arguments: { text: 'hi' } }]);

    const events: LlmStreamEvent[] = [];
    const stream = provider.stream({
      messages: [
        ...history,
        { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'call_e1', content: 'hi' },
      ],
      tools: [ECHO],
    });
    for await (const event of stream) events.push(event);
    expect(events).toEqual([
      { type: 'text_delta', text: 'The tool said ' },
      { type: 'text_delta', text: 'hi' },
      { type: 'text_delta', text: '.' },
      { type: 'usage', usage: { inputTokens: 40, outputTokens: 3 } },
      { type: 'done', stopReason: 'end_turn' },
    ]);
    expect(provider.remainingSteps).toBe(0);
    expect(provider.callCount).toBe(2);
    await expect(complete(provider, { messages: history })).rejects.toBeInstanceOf(LlmScriptExhaustedError);
  });

  it('streams a string reply word by word so the deltas join back exactly', async () => {
    const provider = new ScriptedProvider({ steps: [{ reply: { text: '  Hello,  wide world ' } }] });
    const deltas: string[] = [];
    for await (const event of provider.stream({ messages: [] }))
      if (event.type === 'text_delta') deltas.push(event.text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('  Hello,  wide world ');
  });

  it('names the step and every failed check when the request does not match', async () => {
    const provider = new ScriptedProvider(conversation);
    const error = await complete(provider, {
      messages: [{ role: 'user', content: 'something else' }],
      tools: [ECHO, SHELL],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmScriptMismatchError);
    const message = (error as Error).message;
    expect(message).toContain('step 1 ("asks for echo")');
    expect(message).toContain('expected the last user message to contain "say hi", got "something else"');
    expect(message).toContain('expected the system prompt to contain "terse"');
    expect(message).toContain('expected tools shell not to be offered');
    expect((error as LlmScriptMismatchError).code).toBe('INTERNAL');
    expect((error as LlmScriptMismatchError).llmCode).toBe('LLM_SCRIPT_MISMATCH');
    // A mismatch does not consume the step.
    expect(provider.remainingSteps).toBe(2);
  });

  it('reports a missing tool result and a tool result with the wrong content', async () => {
    const provider = new ScriptedProvider({
      steps: [
        {
          name: 'check',
          expect: {
            toolResults: [
              { callId: 'a', contains: 'ok' },
              { callId: 'b', contains: 'x' },
            ],
            toolsInclude: ['echo'],
          },
          reply: { text: 'x' },
        },
      ],
    });
    const error = await complete(provider, {
      messages: [{ role: 'tool', toolCallId: 'a', content: 'failed' }],
    }).catch((e: unknown) => e);
    expect((error as Error).message).toContain(
      'expected the tool result for a to contain "ok", got "failed"',
    );
    expect((error as Error).message).toContain('expected a tool result for call id b, but there is none');
    expect((error as Error).message).toContain('expected tools echo to be offered; offered: none');
  });

  it('gives default call ids, emits malformed arguments as such, and loops when asked', async () => {
    const provider = new ScriptedProvider({
      loop: true,
      steps: [
        {
          reply: {
            toolCalls: [
              { name: 'echo', arguments: {} },
              { name: 'echo', rawArguments: '{oops' },
            ],
          },
        },
      ],
    });
    for (let round = 0; round < 3; round++) {
      const reply = await complete(provider, { messages: [] });
      expect(reply.toolCalls).toEqual([{ id: 'call_1_1', name: 'echo', arguments: {} }]);
      expect(reply.malformedToolCalls).toEqual([
        {
          id: 'call_1_2',
          name: 'echo',
          rawArguments: '{oops',
          message: expect.stringContaining('not valid JSON'),
        },
      ]);
    }
  });

  it('stops when the signal aborts between deltas', async () => {
    const provider = new ScriptedProvider({ steps: [{ reply: { text: ['a', 'b', 'c'], delayMs: 5 } }] });
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of provider.stream({ messages: [] }, { signal: controller.signal })) {
        if (event.type === 'text_delta') seen.push(event.text);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect((error as Error).name).toBe('AbortError');
  });

  it('refuses an invalid script with the reasons', () => {
    expect(() => new ScriptedProvider({ steps: [] })).toThrow(LlmScriptInvalidError);
    expect(() => new ScriptedProvider({ steps: [{ reply: { text: 'x', colour: 'red' } }] })).toThrow(
      /steps\/0\/reply/,
    );
    expect(() => new ScriptedProvider({ steps: [{ reply: { toolCalls: [{ name: 'echo' }] } }] })).toThrow(
      /exactly one of arguments or rawArguments/,
    );
    expect(() => new ScriptedProvider({ steps: [{ expect: { lastUserMessage: 'x' }, reply: {} }] })).toThrow(
      LlmScriptInvalidError,
    );
  });

  it('loads a JSON script file, and says which file is broken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'talon-llm-script-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, '\uFEFF' + JSON.stringify({ steps: [{ reply: { text: 'from a file' } }] }));
    const reply = await collectLlmStream(ScriptedProvider.fromFile(good).stream({ messages: [] }));
    expect(reply.text).toBe('from a file');

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "steps": [ ');
    expect(() => ScriptedProvider.fromFile(broken)).toThrow(
      new RegExp(`${broken.replaceAll('/', '\\/')} is not valid: not valid JSON`),
    );
    expect(() => ScriptedProvider.fromFile(join(dir, 'missing.json'))).toThrow(/cannot read the file/);
  });
});
