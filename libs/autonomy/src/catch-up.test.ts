import { describe, expect, it } from '@jest/globals';
import type { Guardrails } from '@talon/contracts';
import { MISSED_COUNT_LIMIT, planFires } from './catch-up.js';
import { nextSlot, slotsAfter, slotsBefore, type ScheduledTrigger } from './trigger-schedule.js';

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

  it('plans a month-long outage of a per-second cron from its latest slots, in bounded work', () => {
    const cron = { kind: 'cron' as const, expression: '* * * * * *' };
    const now = new Date(at(1).getTime() + 30 * 86_400_000 + 500);
    const started = process.cpuUsage();
    const once = planFires(cron, at(1), now, anchor, { catchUp: 'once', misfireGraceMs: 3000 });
    const spentMs = process.cpuUsage(started).user / 1000;
    // On time: the slots of the last 3 s; caught up: the latest slot before them, not the oldest.
    const second = (offset: number) => new Date(Math.floor(now.getTime() / 1000) * 1000 + offset * 1000);
    expect(once.fires).toEqual([
      { slotAt: second(-3), source: 'catch_up' },
      { slotAt: second(-2), source: 'schedule' },
      { slotAt: second(-1), source: 'schedule' },
      { slotAt: second(0), source: 'schedule' },
    ]);
    expect(once.next).toEqual(second(1));
    // 2.6 million missed slots are not walked: the count stops at its bound and says so.
    expect(once.skipped).toBe(MISSED_COUNT_LIMIT - 1);
    expect(once.skippedExact).toBe(false);
    // Walking every slot took 18 s of CPU here; the bound is a few thousand cron steps.
    expect(spentMs).toBeLessThan(2_000);
    const all = planFires(cron, at(1), now, anchor, { catchUp: 'all', catchUpMax: 3, misfireGraceMs: 3000 });
    expect(all.fires.filter((fire) => fire.source === 'catch_up').map((fire) => fire.slotAt)).toEqual([
      second(-5),
      second(-4),
      second(-3),
    ]);
  });

  it('counts the missed slots of a long interval outage exactly', () => {
    const now = new Date(at(0).getTime() + 86_400_000 + 250);
    const plan = planFires(every, at(1), now, anchor, { misfireGraceMs: 1000 });
    // Slots 1 … 86,399 s are older than the grace; 86,400 is on time.
    expect(plan.skipped).toBe(86_399);
    expect(plan.skippedExact).toBe(true);
    expect(plan.fires).toEqual([{ slotAt: at(86_400), source: 'schedule' }]);
    expect(plan.next).toEqual(at(86_401));
  });

  it('agrees with walking the slots one by one (cron across daylight saving changes, intervals, once)', () => {
    const triggers: ScheduledTrigger[] = [
      { kind: 'cron', expression: '30 * * * *', timezone: 'Europe/Berlin' },
      { kind: 'cron', expression: '30 2 * * *', timezone: 'Europe/Berlin' },
      { kind: 'cron', expression: '*/20 * * * * *' },
      { kind: 'cron', expression: '0 9 * * 1-5', timezone: 'Asia/Shanghai' },
      { kind: 'interval', everyMs: 7_000 },
      { kind: 'interval', everyMs: 60_000, startAt: '2027-03-28T00:00:30Z' },
      { kind: 'once', at: '2027-03-28T01:10:00Z' },
    ];
    // Berlin springs forward at 01:00 UTC on 2027-03-28 and falls back at 01:00 UTC on 2027-10-31.
    const bases = [new Date('2027-03-27T22:00:00Z'), new Date('2027-10-30T22:00:00Z')];
    const guardrails: Guardrails[] = [
      {},
      { catchUp: 'once', misfireGraceMs: 250 },
      { catchUp: 'all', catchUpMax: 4, misfireGraceMs: 90_000 },
      { catchUp: 'all', misfireGraceMs: 3_600_000 },
    ];
    let compared = 0;
    for (const [trigger, base] of triggers.flatMap((trigger) =>
      bases.map((base) => [trigger, base] as const),
    )) {
      const due = nextSlot(trigger, base, anchor);
      if (!due) continue;
      for (const hours of [0.001, 0.75, 3.5]) {
        const now = new Date(due.getTime() + hours * 3_600_000);
        for (const rails of guardrails) {
          expect({ trigger, hours, rails, plan: planFires(trigger, due, now, anchor, rails) }).toEqual({
            trigger,
            hours,
            rails,
            plan: walkedPlan(trigger, due, now, rails),
          });
          compared++;
        }
      }
    }
    expect(compared).toBe(156);
    // Planned after the repeated wall time of the fall-back change: 02:30 Berlin fired once that day.
    const fold = { kind: 'cron' as const, expression: '30 2 * * *', timezone: 'Europe/Berlin' };
    const afterFold = new Date('2027-10-31T01:10:00Z');
    for (const [from, rails] of [
      [new Date('2027-10-25T00:30:00Z'), { catchUp: 'all', catchUpMax: 3, misfireGraceMs: 60_000 }],
      [new Date('2027-10-31T00:30:00Z'), { catchUp: 'once', misfireGraceMs: 60_000 }],
    ] as const) {
      const folded = planFires(fold, from, afterFold, anchor, rails);
      expect(folded).toEqual(walkedPlan(fold, from, afterFold, rails));
      expect(folded.next).toEqual(new Date('2027-11-01T01:30:00Z'));
      expect(folded.fires.at(-1)!.slotAt).toEqual(new Date('2027-10-31T00:30:00Z'));
    }
    // A daily slot moved by the spring-forward change, among the latest missed ones.
    const daily = { kind: 'cron' as const, expression: '30 2 * * *', timezone: 'Europe/Berlin' };
    const due = new Date('2027-03-20T01:30:00Z');
    const now = new Date('2027-03-30T12:00:00Z');
    const rails: Guardrails = { catchUp: 'all', catchUpMax: 4, misfireGraceMs: 90_000 };
    const plan = planFires(daily, due, now, anchor, rails);
    expect(plan).toEqual(walkedPlan(daily, due, now, rails));
    expect(plan.fires.map((fire) => fire.slotAt.toISOString())).toEqual([
      '2027-03-27T01:30:00.000Z',
      '2027-03-28T01:30:00.000Z',
      '2027-03-29T00:30:00.000Z',
      '2027-03-30T00:30:00.000Z',
    ]);
  });
});

describe('slotsBefore', () => {
  it('walks back over the slots slotsAfter walks forward, but for the one a spring-forward change moved', () => {
    const walk = (trigger: ScheduledTrigger) => {
      const forward: Date[] = [];
      for (const slot of slotsAfter(trigger, new Date('2027-03-26T00:00:00Z'), anchor)) {
        if (forward.push(slot) === 40) break;
      }
      const back: Date[] = [];
      for (const slot of slotsBefore(trigger, new Date(forward[39]!.getTime() + 1), anchor)) {
        back.push(slot);
        if (slot.getTime() <= forward[0]!.getTime()) break;
      }
      return { forward, back: back.reverse() };
    };
    const interval = walk({ kind: 'interval', everyMs: 90_000, startAt: '2027-03-27T00:00:00Z' });
    expect(interval.back).toEqual(interval.forward);
    // 02:30 Berlin does not exist on 2027-03-28: the schedule fires it at 03:30 CEST, the walk back skips it.
    const cron = walk({ kind: 'cron', expression: '30 2 * * *', timezone: 'Europe/Berlin' });
    const moved = new Date('2027-03-28T01:30:00Z');
    expect(cron.forward).toContainEqual(moved);
    expect(cron.back).toEqual(cron.forward.filter((slot) => slot.getTime() !== moved.getTime()));
    // An interval has no slots before its first.
    const first = { kind: 'interval' as const, everyMs: 1000, startAt: '2027-01-01T00:00:10Z' };
    expect([...slotsBefore(first, new Date('2027-01-01T00:00:10Z'), anchor)]).toEqual([]);
  });
});

/** The plan by walking every slot from `due` (what planFires did before it was bounded). */
function walkedPlan(trigger: ScheduledTrigger, due: Date, now: Date, rails: Guardrails) {
  const grace = rails.misfireGraceMs ?? 5000;
  const bound = rails.catchUpMax ?? 10;
  const onTime: Date[] = [];
  const missed: Date[] = [];
  let count = 0;
  let slot: Date | undefined = due;
  while (slot !== undefined && slot.getTime() <= now.getTime()) {
    if (now.getTime() - slot.getTime() <= grace) onTime.push(slot);
    else {
      count++;
      missed.push(slot);
      if (missed.length > bound) missed.shift();
    }
    slot = nextSlot(trigger, slot, anchor);
  }
  const caughtUp = rails.catchUp === 'all' ? missed : rails.catchUp === 'once' ? missed.slice(-1) : [];
  // The plan counts a cron's missed slots up to a bound.
  const counted = trigger.kind === 'cron' ? Math.min(count, MISSED_COUNT_LIMIT) : count;
  return {
    fires: [
      ...caughtUp.map((slotAt) => ({ slotAt, source: 'catch_up' })),
      ...onTime.map((slotAt) => ({ slotAt, source: 'schedule' })),
    ],
    skipped: counted - caughtUp.length,
    skippedExact: counted === count,
    next: slot,
  };
}
