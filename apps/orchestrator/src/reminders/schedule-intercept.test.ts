import { describe, expect, it } from '@jest/globals';
import { validateTrigger } from '@talon/autonomy';
import { parseSchedule } from '@talon/schedule';
import { triggerOf } from './schedule-intercept.js';

const NOW = '2026-12-01T10:00:00+08:00';

function triggerFor(text: string) {
  const result = parseSchedule(text, { timezone: 'Asia/Shanghai', now: NOW });
  if (result.kind !== 'exact') throw new Error(`${text}: ${result.kind}`);
  return triggerOf(result.schedule);
}

describe('triggerOf', () => {
  it('turns each kind of parsed schedule into a routine trigger the routine validator accepts', () => {
    const daily = triggerFor('每天早上9点提醒我查房');
    expect(daily).toEqual({ kind: 'cron', expression: '0 9 * * *', timezone: 'Asia/Shanghai' });
    const once = triggerFor('明天下午3点提醒我开会');
    expect(once).toEqual({ kind: 'once', at: '2026-12-02T07:00:00.000Z' });
    const every = triggerFor('每隔45分钟提醒我喝水');
    expect(every).toMatchObject({ kind: 'interval', everyMs: 45 * 60_000 });
    for (const trigger of [daily, once, every])
      expect(() => validateTrigger(trigger, new Date(NOW))).not.toThrow();
  });
});
