import { describe, expect, it } from '@jest/globals';
import { ScriptedProvider } from '@talon/llm';
import { buildRunner } from '../test/support/agent-fixtures.js';
import { streamAgentEvents } from './agent-event-stream.js';
import type { AgentEvent } from './agent-events.js';

describe('streamAgentEvents', () => {
  it('yields a turn’s events in order and ends with turn_finished', async () => {
    const provider = new ScriptedProvider({
      steps: [
        { reply: { toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'x' } }] } },
        { reply: { text: 'Done now.', delayMs: 2 } },
      ],
    });
    const t = buildRunner({ provider });
    const seen: AgentEvent[] = [];
    for await (const event of streamAgentEvents((emit) =>
      t.runner.run({ sessionId: 's1', message: 'x', onEvent: emit }),
    ))
      seen.push(event);
    expect(seen[0]!.type).toBe('turn_started');
    expect(seen.at(-1)!.type).toBe('turn_finished');
    expect(
      seen
        .filter((event) => event.type === 'text_delta')
        .map((event) => (event as { text: string }).text)
        .join(''),
    ).toBe('Done now.');
  });

  it('rethrows when the producer rejects, after the events it emitted', async () => {
    const seen: string[] = [];
    const stream = streamAgentEvents(async (emit) => {
      emit({ type: 'turn_started', sessionId: 's', turnId: 't', resumed: false });
      throw new Error('store down');
    });
    await expect(
      (async () => {
        for await (const event of stream) seen.push(event.type);
      })(),
    ).rejects.toThrow('store down');
    expect(seen).toEqual(['turn_started']);
  });
});
