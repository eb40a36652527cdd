import { describe, expect, it } from '@jest/globals';
import { renderChatEvent } from './chat-renderer.js';

describe('renderChatEvent', () => {
  it('shows a caught schedule’s confirmation and a delivered reminder', () => {
    expect(
      renderChatEvent({
        type: 'schedule_intercepted',
        sessionId: 's',
        content: '好的，每天 09:00 提醒你：查房',
      }),
    ).toContain('好的，每天 09:00 提醒你：查房');
    expect(renderChatEvent({ type: 'reminder', sessionId: 's', text: '查房' })).toContain('⏰ 查房');
  });
});
