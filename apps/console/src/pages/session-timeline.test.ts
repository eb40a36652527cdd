import { describe, expect, it } from '@jest/globals';
import type { ChatEvent } from '@talon/contracts';
import { SessionTimeline } from './session-timeline.js';

const event = (type: string, fields: Record<string, unknown> = {}): ChatEvent => ({
  type,
  sessionId: 's',
  turnId: 't1',
  ...fields,
});

describe('SessionTimeline', () => {
  it('gathers a call asked for approval before it started into one row, and streams text into one row', () => {
    const timeline = new SessionTimeline();
    timeline.apply(event('text_delta', { text: 'Let me ' }));
    timeline.apply(event('text_delta', { text: 'post.' }));
    timeline.apply(
      event('approval_requested', {
        approvalId: 'a1',
        callId: 'c1',
        tool: 'http',
        params: { url: 'x' },
        reason: 'writes',
      }),
    );
    expect(timeline.items.map((item) => item.kind)).toEqual(['assistant', 'tool']);
    expect(timeline.items[1]).toMatchObject({ state: 'waiting', approval: { id: 'a1' } });
    timeline.apply(event('approval_resolved', { approvalId: 'a1', callId: 'c1', decision: 'approve' }));
    timeline.apply(event('tool_call_started', { callId: 'c1', tool: 'http', params: { url: 'x' } }));
    timeline.apply(
      event('tool_call_finished', {
        callId: 'c1',
        tool: 'http',
        ok: true,
        durationMs: 12,
        policy: { action: 'ask', reason: 'writes' },
      }),
    );
    timeline.apply(event('text_delta', { text: 'Done.' }));
    expect(timeline.items.map((item) => item.kind)).toEqual(['assistant', 'tool', 'assistant']);
    expect(timeline.items[0]).toMatchObject({ text: 'Let me post.', streaming: false });
    expect(timeline.items[1]).toMatchObject({
      state: 'ok',
      durationMs: 12,
      approval: { decision: 'approve' },
    });
  });

  it('takes from history only the output of turns it saw from their start, and every row of turns it did not see', () => {
    const timeline = new SessionTimeline();
    timeline.apply(event('turn_started', { resumed: false }));
    timeline.apply(event('tool_call_started', { callId: 'c1', tool: 'echo', params: { message: 'hi' } }));
    const before = timeline.revision(timeline.items[0]!);
    timeline.loadHistory([
      { seq: 1, turnId: 't0', role: 'user', message: { role: 'user', content: 'earlier' }, createdAt: '' },
      { seq: 2, turnId: 't1', role: 'user', message: { role: 'user', content: 'now' }, createdAt: '' },
      {
        seq: 3,
        turnId: 't1',
        role: 'assistant',
        message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'echo', arguments: {} }] },
        createdAt: '',
      },
      {
        seq: 4,
        turnId: 't1',
        role: 'tool',
        message: { role: 'tool', toolCallId: 'c1', content: '<img src=x>' },
        createdAt: '',
      },
    ]);
    // The earlier turn goes before the live one.
    expect(timeline.items.map((item) => [item.kind, item.turnId])).toEqual([
      ['user', 't0'],
      ['tool', 't1'],
    ]);
    expect(timeline.items[1]).toMatchObject({ output: '<img src=x>' });
    expect(timeline.revision(timeline.items[1]!)).toBeGreaterThan(before);
    timeline.loadHistory([
      { seq: 1, turnId: 't0', role: 'user', message: { role: 'user', content: 'earlier' }, createdAt: '' },
    ]);
    expect(timeline.items).toHaveLength(2);
  });

  it('fills a turn the stream joined midway from the store, in stored order, each row once', () => {
    // The page opened while the turn ran: its call finished before the stream was live, and only the
    // answer and the end arrived live.
    const timeline = new SessionTimeline();
    timeline.loadHistory([
      { seq: 1, turnId: 't0', role: 'user', message: { role: 'user', content: 'earlier' }, createdAt: '' },
    ]);
    timeline.apply(event('message', { content: 'Posted.' }));
    timeline.apply(event('turn_finished', { reason: 'final_answer', iterations: 2 }));
    const stored = [
      { seq: 1, turnId: 't0', role: 'user', message: { role: 'user', content: 'earlier' }, createdAt: '' },
      { seq: 2, turnId: 't1', role: 'user', message: { role: 'user', content: 'post it' }, createdAt: '' },
      {
        seq: 3,
        turnId: 't1',
        role: 'assistant',
        message: { role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'http', arguments: {} }] },
        createdAt: '',
      },
      {
        seq: 4,
        turnId: 't1',
        role: 'tool',
        message: { role: 'tool', toolCallId: 'c2', content: '{"status":200}' },
        createdAt: '',
      },
      {
        seq: 5,
        turnId: 't1',
        role: 'assistant',
        message: { role: 'assistant', content: 'Posted.' },
        createdAt: '',
      },
    ] as const;
    timeline.loadHistory([...stored]);
    const rows = () =>
      timeline.items.map((item) =>
        item.kind === 'tool'
          ? `tool:${item.state}:${item.output}`
          : `${item.kind}:${'text' in item ? item.text : ''}`,
      );
    const expected = [
      'user:earlier',
      'user:post it',
      'tool:ok:{"status":200}',
      'assistant:Posted.',
      'note:turn finished: final_answer after 2 model call(s)',
    ];
    expect(rows()).toEqual(expected);
    timeline.loadHistory([...stored]);
    expect(rows()).toEqual(expected);
  });

  it('adopts its own message in a joined turn and keeps later stored rows after the ones shown', () => {
    const timeline = new SessionTimeline();
    timeline.addUserMessage('post it');
    timeline.apply(event('tool_call_finished', { callId: 'c3', tool: 'http', ok: true, durationMs: 5 }));
    timeline.loadHistory([
      { seq: 1, turnId: 't1', role: 'user', message: { role: 'user', content: 'post it' }, createdAt: '' },
      {
        seq: 2,
        turnId: 't1',
        role: 'assistant',
        message: {
          role: 'assistant',
          content: 'On it.',
          toolCalls: [{ id: 'c3', name: 'http', arguments: {} }],
        },
        createdAt: '',
      },
    ]);
    expect(timeline.items.map((item) => item.kind)).toEqual(['user', 'assistant', 'tool']);
    timeline.loadHistory([
      { seq: 1, turnId: 't1', role: 'user', message: { role: 'user', content: 'post it' }, createdAt: '' },
      {
        seq: 2,
        turnId: 't1',
        role: 'assistant',
        message: {
          role: 'assistant',
          content: 'On it.',
          toolCalls: [{ id: 'c3', name: 'http', arguments: {} }],
        },
        createdAt: '',
      },
      {
        seq: 3,
        turnId: 't1',
        role: 'tool',
        message: { role: 'tool', toolCallId: 'c3', content: 'done' },
        createdAt: '',
      },
      {
        seq: 4,
        turnId: 't1',
        role: 'assistant',
        message: { role: 'assistant', content: 'Done.' },
        createdAt: '',
      },
    ]);
    expect(timeline.items.map((item) => item.kind)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(timeline.items[2]).toMatchObject({ state: 'ok', output: 'done' });
  });

  it('shows a final answer once when the history already held it and its events arrive after', () => {
    const timeline = new SessionTimeline();
    timeline.loadHistory([
      { seq: 1, turnId: 't1', role: 'user', message: { role: 'user', content: 'post it' }, createdAt: '' },
      {
        seq: 2,
        turnId: 't1',
        role: 'assistant',
        message: { role: 'assistant', content: 'Posted.' },
        createdAt: '',
      },
    ]);
    timeline.apply(event('text_delta', { text: 'Posted.' }));
    timeline.apply(event('message', { content: 'Posted.' }));
    timeline.apply(event('turn_finished', { reason: 'final_answer' }));
    expect(timeline.items.filter((item) => item.kind === 'assistant')).toHaveLength(1);
    // A later answer of the same turn that the history did not hold is still shown.
    timeline.apply(event('message', { content: 'And one more thing.' }));
    expect(timeline.items.filter((item) => item.kind === 'assistant')).toHaveLength(2);
  });

  it('takes the stored result of a call whose tool_call_finished came before the stream was live', () => {
    const timeline = new SessionTimeline();
    timeline.apply(event('turn_started', { resumed: false }));
    timeline.apply(event('tool_call_started', { callId: 'c7', tool: 'http', params: {} }));
    timeline.apply(event('turn_finished', { reason: 'final_answer', iterations: 2 }));
    expect(timeline.items.find((item) => item.kind === 'tool')).toMatchObject({
      state: 'failed',
      code: 'UNFINISHED',
    });
    timeline.loadHistory([
      {
        seq: 3,
        turnId: 't1',
        role: 'tool',
        message: { role: 'tool', toolCallId: 'c7', content: '{"status":200}' },
        createdAt: '',
      },
    ]);
    const row = timeline.items.find((item) => item.kind === 'tool');
    expect(row).toMatchObject({ state: 'ok', output: '{"status":200}' });
    expect(row).not.toHaveProperty('code');
  });

  it('knows while a turn runs, from its start to its end (cancelled ones too)', () => {
    const timeline = new SessionTimeline();
    expect(timeline.turnRunning).toBe(false);
    timeline.apply(event('turn_started', { resumed: false }));
    timeline.apply(event('tool_call_started', { callId: 'c9', tool: 'echo', params: {} }));
    expect(timeline.turnRunning).toBe(true);
    const version = timeline.version;
    timeline.apply(event('turn_finished', { reason: 'aborted', iterations: 1 }));
    expect(timeline.turnRunning).toBe(false);
    expect(timeline.version).toBeGreaterThan(version);
    expect(timeline.items.at(-1)).toMatchObject({ kind: 'note', text: expect.stringContaining('aborted') });
    // The aborted call sends no tool_call_finished: the row ends with its turn.
    expect(timeline.items.find((item) => item.kind === 'tool')).toMatchObject({
      state: 'failed',
      code: 'CANCELLED',
    });
  });
});
