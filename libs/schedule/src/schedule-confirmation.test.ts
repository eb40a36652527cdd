import { describe, expect, it } from '@jest/globals';
import { parseSchedule } from './schedule-parser.js';
import { scheduleConfirmation } from './schedule-confirmation.js';

const NOW = '2026-12-01T10:00:00+08:00';

function confirm(text: string, hands: string[] = []): string {
  const result = parseSchedule(text, { timezone: 'Asia/Shanghai', now: NOW, hands });
  if (result.kind !== 'exact') throw new Error(`${text}: ${result.kind}`);
  return scheduleConfirmation(result);
}

describe('scheduleConfirmation', () => {
  it('answers a Chinese reminder in Chinese', () => {
    expect(confirm('每天早上9点提醒我查房')).toBe('好的，每天 09:00 提醒你：查房');
  });

  it('answers an English reminder in English', () => {
    expect(confirm('remind me every weekday at 9am to stand up')).toBe(
      "OK, I'll remind you every weekday at 09:00: stand up",
    );
  });

  it('names the task of a schedule that is not a reminder, and a hand by its id', () => {
    expect(confirm('tomorrow at 3pm call the bank')).toBe(
      "OK, I'll do this tomorrow (Wed 2 Dec) at 15:00: call the bank",
    );
    expect(confirm('每天早上8点运行 digest', ['digest'])).toMatch(/^好的，每天 08:00 运行 digest/);
  });
});
