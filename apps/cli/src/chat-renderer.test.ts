import { describe, expect, it } from '@jest/globals';
import { ChatRenderer, formatDuration } from './chat-renderer.js';
import { terminalStyle } from './terminal-style.js';

const ESC = '\x1b[';
const plain = () => new ChatRenderer({ style: terminalStyle(false) });
const session = { sessionId: 's', turnId: 't' };

describe('ChatRenderer', () => {
  it('shows a caught schedule’s confirmation and a delivered reminder', () => {
    const renderer = plain();
    expect(
      renderer.render({
        type: 'schedule_intercepted',
        sessionId: 's',
        content: '好的，每天 09:00 提醒你：查房',
      }),
    ).toContain('好的，每天 09:00 提醒你：查房');
    expect(renderer.render({ type: 'reminder', sessionId: 's', text: '查房' })).toContain('⏰ 查房');
  });

  it('puts each tool call on one line with its params, outcome and time, after the streamed text', () => {
    const renderer = plain();
    expect(renderer.render({ type: 'text_delta', ...session, text: 'Writing it.' })).toBe('Writing it.');
    expect(
      renderer.render({
        type: 'tool_call_started',
        ...session,
        callId: 'c1',
        tool: 'write_file',
        params: { path: 'a.md' },
      }),
    ).toBeUndefined();
    expect(
      renderer.render({
        type: 'tool_call_finished',
        ...session,
        callId: 'c1',
        tool: 'write_file',
        ok: true,
        durationMs: 12.4,
      }),
    ).toBe('\n✓ write_file {"path":"a.md"}  12 ms\n');
    renderer.render({
      type: 'tool_call_started',
      ...session,
      callId: 'c2',
      tool: 'shell',
      params: { cmd: 'rm -rf /' },
    });
    expect(
      renderer.render({
        type: 'tool_call_finished',
        ...session,
        callId: 'c2',
        tool: 'shell',
        ok: false,
        code: 'POLICY_DENIED',
        message: 'refused by rule no-rm',
        durationMs: 2300,
      }),
    ).toBe('✗ shell {"cmd":"rm -rf /"}  POLICY_DENIED refused by rule no-rm  2.3 s\n');
  });

  it('writes plain text when piped and colour on a terminal', () => {
    const finished = {
      type: 'tool_call_finished',
      ...session,
      callId: 'c',
      tool: 'echo',
      ok: true,
      durationMs: 1,
    };
    expect(plain().render(finished)).not.toContain(ESC);
    expect(new ChatRenderer({ style: terminalStyle(true) }).render(finished)).toContain(`${ESC}32m✓`);
  });

  it('says a cancelled turn ended, and ends a streamed line once', () => {
    const renderer = plain();
    renderer.render({ type: 'text_delta', ...session, text: 'partial' });
    expect(renderer.render({ type: 'turn_finished', ...session, reason: 'aborted', iterations: 1 })).toBe(
      '\nturn cancelled\n',
    );
    expect(renderer.endLine()).toBe('');
    renderer.render({ type: 'text_delta', ...session, text: 'done' });
    expect(renderer.endLine()).toBe('\n');
  });

  it('renders /help as text, not as an escaped JSON string', () => {
    const text = plain().render({
      type: 'command_result',
      sessionId: 's',
      command: 'help',
      result: { help: 'Commands:\n  /tools [filter]', model: 'configured' },
    });
    expect(text).toBe('Commands:\n  /tools [filter]\n');
  });

  it('formats durations in words a person reads', () => {
    expect(formatDuration(0.4)).toBe('0 ms');
    expect(formatDuration(999)).toBe('999 ms');
    expect(formatDuration(61_000)).toBe('61.0 s');
  });
});
