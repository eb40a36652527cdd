import { describe, expect, it } from '@jest/globals';
import { planFires } from './catch-up.js';

const anchor = new Date('2027-01-01T00:00:00Z');
const every = { kind: 'interval' as const, everyMs: 1000 };
const at = (s: number) => new Date(anchor.getTime() + s * 1000);

describe('planFires', () => {
  it('fires a slot that is due within the grace, and moves next past now', () => {
    const plan = planFires(every, at(5), new Date(at(5).getTime() + 200), anchor);
    expect(plan.fires).toEqual([{ slotAt: at(5), source: 'schedule' }]);
    expect(plan.next).toEqual(at(6));
    expect(plan.skipped).toBe(0);
  });

  it('skips missed slots by default', () => {
    // Down from slot 1 to just after slot 20, grace 5 s: slots 1..15 are missed, 16..20 are on time.
    const plan = planFires(every, at(1), new Date(at(20).getTime() + 100), anchor, { misfireGraceMs: 5000 });
    expect(plan.fires.every((fire) => fire.source === 'schedule')).toBe(true);
    expect(plan.fires.map((fire) => fire.slotAt)).toEqual([at(16), at(17), at(18), at(19), at(20)]);
    expect(plan.skipped).toBe(15);
    expect(plan.next).toEqual(at(21));
  });

  it('fires the latest missed slot once, or all of them up to the bound', () => {
    const now = new Date(at(5).getTime() + 600);
    const once = planFires(every, at(1), now, anchor, { catchUp: 'once', misfireGraceMs: 500 });
    expect(once.fires).toEqual([{ slotAt: at(5), source: 'catch_up' }]);
    expect(once.skipped).toBe(4);
    const all = planFires(every, at(1), now, anchor, { catchUp: 'all', misfireGraceMs: 500 });
    expect(all.fires.map((fire) => fire.slotAt)).toEqual([at(1), at(2), at(3), at(4), at(5)]);
    const bounded = planFires(every, at(1), now, anchor, {
      catchUp: 'all',
      catchUpMax: 2,
      misfireGraceMs: 500,
    });
    expect(bounded.fires.map((fire) => fire.slotAt)).toEqual([at(4), at(5)]);
    expect(bounded.skipped).toBe(3);
  });

  it('leaves a fired once with no next slot', () => {
    const once = { kind: 'once' as const, at: at(3).toISOString() };
    const plan = planFires(once, at(3), new Date(at(3).getTime() + 10), anchor);
    expect(plan.fires).toHaveLength(1);
    expect(plan.next).toBeUndefined();
  });

  it('stays bounded after a very long outage of a per-second cron', () => {
    const cron = { kind: 'cron' as const, expression: '* * * * * *' };
    const plan = planFires(cron, at(1), new Date(at(1).getTime() + 30 * 86_400_000), anchor);
    expect(plan.next!.getTime()).toBeGreaterThan(at(1).getTime() + 30 * 86_400_000);
    expect(plan.fires.length).toBeLessThanOrEqual(6);
  });
});
