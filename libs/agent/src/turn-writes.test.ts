import { describe, expect, it } from '@jest/globals';
import type { LlmMessage, LlmProvider, LlmRequest } from '@talon/llm';
import { ScriptedProvider } from '@talon/llm';
import { buildRunner, RecordingToolCaller } from '../test/support/agent-fixtures.js';
import { InMemorySessionStore } from './in-memory-session-store.js';
import type { StoredMessage } from './session-store.js';
import type { TurnFence } from './turn-lease-store.js';

/** What happened, in order: writes starting and ending (by role), model calls starting. */
type Step = string;

/** A session store whose writes take `delayMs` and can fail for chosen roles, recording each step. */
class SlowSessionStore extends InMemorySessionStore {
  readonly steps: Step[] = [];
  failRoles = new Set<string>();
  failOnce = false;

  constructor(private readonly delayMs: number) {
    super();
  }

  override async append(
    sessionId: string,
    turnId: string,
    message: LlmMessage,
    fence?: TurnFence,
  ): Promise<StoredMessage> {
    const kind = message.role === 'assistant' && message.toolCalls ? 'calls' : message.role;
    this.steps.push(`write ${kind}`);
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.failRoles.has(kind)) {
      if (this.failOnce) this.failRoles.delete(kind);
      this.steps.push(`failed ${kind}`);
      throw new Error(`the store refused a ${kind} message`);
    }
    this.steps.push(`wrote ${kind}`);
    return super.append(sessionId, turnId, message, fence);
  }
}

/** The provider, recording when each model call starts. */
function recorded(provider: LlmProvider, steps: Step[]): LlmProvider {
  return {
    name: provider.name,
    model: provider.model,
    stream: (request: LlmRequest, options) => {
      steps.push('model');
      return provider.stream(request, options);
    },
  };
}

const script = () =>
  new ScriptedProvider({
    steps: [
      { reply: { text: '', toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'one' } }] } },
      { expect: { toolResults: [{ callId: 'c1', contains: 'one' }] }, reply: { text: 'done' } },
    ],
  });

describe('the turn loop overlaps its writes with other work, but never reorders them or runs ahead of them', () => {
  it('writes a batch result while the model answers, and the answer only after it', async () => {
    const sessions = new SlowSessionStore(30);
    const t = buildRunner({ provider: recorded(script(), sessions.steps), sessions });
    const result = await t.runner.run({ sessionId: 's1', message: 'echo one' });
    expect(result).toMatchObject({ reason: 'final_answer', content: 'done' });
    expect(sessions.steps).toEqual([
      'write user',
      'wrote user',
      'model',
      'write calls',
      'wrote calls',
      'write tool',
      // The second model call sees the result before the result is in the log ...
      'model',
      'wrote tool',
      // ... and the answer is written after it.
      'write assistant',
      'wrote assistant',
    ]);
    const log = await sessions.load('s1');
    expect(log.map((stored) => stored.message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('runs no tool while the message that asks for it is not in the log, and runs none if it never gets there', async () => {
    const sessions = new SlowSessionStore(30);
    sessions.failRoles.add('calls');
    const caller = new RecordingToolCaller();
    const t = buildRunner({ provider: script(), sessions, caller });
    const result = await t.runner.run({ sessionId: 's1', message: 'echo one' });
    expect(result.reason).toBe('error');
    expect(caller.calls).toHaveLength(0);
    // No result for a call the log never held: the history stays valid.
    expect((await sessions.load('s1')).map((stored) => stored.message.role)).toEqual(['user']);
  });

  it('fails the turn when a result cannot be written, and closes the call in the log instead of answering', async () => {
    const sessions = new SlowSessionStore(10);
    sessions.failRoles.add('tool');
    sessions.failOnce = true;
    const t = buildRunner({ provider: script(), sessions });
    const result = await t.runner.run({ sessionId: 's1', message: 'echo one' });
    expect(result).toMatchObject({ reason: 'error', error: { code: 'INTERNAL' } });
    expect(result.content).toBeUndefined();
    const log = await sessions.load('s1');
    expect(log.map((stored) => stored.message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(log[2]!.message).toMatchObject({ role: 'tool', toolCallId: 'c1', isError: true });
    expect(sessions.steps).not.toContain('write assistant');
  });
});
