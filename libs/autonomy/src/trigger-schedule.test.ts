import { describe, expect, it } from '@jest/globals';
import { InvalidTriggerError } from './errors/invalid-trigger-error.js';
import { firstSlot, nextSlot, validateTrigger } from './trigger-schedule.js';

const anchor = new Date('2027-01-01T00:00:00Z');

function fieldOf(run: () => void): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidTriggerError) return error.field;
    throw error;
  }
  return undefined;
}

describe('validateTrigger', () => {
  it('names the cron field that is wrong', () => {
    expect(fieldOf(() => validateTrigger({ kind: 'cron', expression: '61 * * * *' }))).toBe(
      'trigger.expression.minute',
    );
    expect(fieldOf(() => validateTrigger({ kind: 'cron', expression: '0 25 * * *' }))).toBe(
      'trigger.expression.hour',
    );
    expect(fieldOf(() => validateTrigger({ kind: 'cron', expression: '0 9 * * 1-9' }))).toBe(
      'trigger.expression.dayOfWeek',
    );
    expect(fieldOf(() => validateTrigger({ kind: 'cron', expression: '70 0 9 * * *' }))).toBe(
      'trigger.expression.second',
    );
    expect(fieldOf(() => validateTrigger({ kind: 'cron', expression: '* * *' }))).toBe('trigger.expression');
  });

  it('refuses an unknown timezone, naming it', () => {
    expect(() => validateTrigger({ kind: 'cron', expression: '0 9 * * 1-5', timezone: 'Mars/Base' })).toThrow(
      /trigger.timezone: "Mars\/Base" is not an IANA timezone/,
    );
    expect(() =>
      validateTrigger({ kind: 'cron', expression: '0 9 * * 1-5', timezone: 'Asia/Shanghai' }),
    ).not.toThrow();
  });

  it('refuses an interval under 1 s and a once in the past', () => {
    expect(fieldOf(() => validateTrigger({ kind: 'interval', everyMs: 999 }))).toBe('trigger.everyMs');
    const now = new Date('2027-01-01T00:00:00Z');
    expect(fieldOf(() => validateTrigger({ kind: 'once', at: '2026-12-31T23:59:59Z' }, now))).toBe(
      'trigger.at',
    );
    expect(fieldOf(() => validateTrigger({ kind: 'once', at: 'tomorrow' }, now))).toBe('trigger.at');
    expect(() => validateTrigger({ kind: 'once', at: '2027-01-01T00:00:01Z' }, now)).not.toThrow();
  });

  it('refuses catastrophic and broken event patterns', () => {
    expect(fieldOf(() => validateTrigger({ kind: 'event', pattern: '(a+)+$' }))).toBe('trigger.pattern');
    expect(fieldOf(() => validateTrigger({ kind: 'event', pattern: '(x' }))).toBe('trigger.pattern');
    expect(() => validateTrigger({ kind: 'event', pattern: '^deploy (\\w+)$', flags: 'i' })).not.toThrow();
  });
});

describe('nextSlot', () => {
  it('fires 02:30 Europe/Berlin at 03:30 CEST on the spring-forward day, once on the fall-back day', () => {
    const trigger = { kind: 'cron' as const, expression: '30 2 * * *', timezone: 'Europe/Berlin' };
    const slots: string[] = [];
    let at = new Date('2027-03-26T12:00:00Z');
    for (let i = 0; i < 3; i++) {
      at = nextSlot(trigger, at, anchor)!;
      slots.push(at.toISOString());
    }
    // 27 March 02:30 CET = 01:30Z; 28 March 02:30 does not exist: 03:30 CEST = 01:30Z; 29 March 02:30 CEST = 00:30Z.
    expect(slots).toEqual([
      '2027-03-27T01:30:00.000Z',
      '2027-03-28T01:30:00.000Z',
      '2027-03-29T00:30:00.000Z',
    ]);
    at = new Date('2027-10-30T12:00:00Z');
    const fall: string[] = [];
    for (let i = 0; i < 2; i++) {
      at = nextSlot(trigger, at, anchor)!;
      fall.push(at.toISOString());
    }
    // 31 October 02:30 happens twice; the first (CEST, 00:30Z) fires, then 1 November 02:30 CET.
    expect(fall).toEqual(['2027-10-31T00:30:00.000Z', '2027-11-01T01:30:00.000Z']);
  });

  it('computes weekday mornings in Shanghai time', () => {
    const trigger = { kind: 'cron' as const, expression: '0 9 * * 1-5', timezone: 'Asia/Shanghai' };
    // Friday 2027-01-01 10:00 Shanghai → Monday 2027-01-04 09:00 Shanghai = 01:00Z.
    expect(nextSlot(trigger, new Date('2027-01-01T02:00:00Z'), anchor)?.toISOString()).toBe(
      '2027-01-04T01:00:00.000Z',
    );
  });

  it('is strictly after the given instant, for seconds crons too', () => {
    const trigger = { kind: 'cron' as const, expression: '* * * * * *' };
    expect(nextSlot(trigger, new Date('2027-01-01T00:00:05.000Z'), anchor)?.toISOString()).toBe(
      '2027-01-01T00:00:06.000Z',
    );
    expect(nextSlot(trigger, new Date('2027-01-01T00:00:05.400Z'), anchor)?.toISOString()).toBe(
      '2027-01-01T00:00:06.000Z',
    );
  });

  it('steps intervals from one interval after creation, or from startAt', () => {
    const every = { kind: 'interval' as const, everyMs: 1000 };
    expect(firstSlot(every, anchor, anchor)?.toISOString()).toBe('2027-01-01T00:00:01.000Z');
    expect(nextSlot(every, new Date('2027-01-01T00:00:05.500Z'), anchor)?.toISOString()).toBe(
      '2027-01-01T00:00:06.000Z',
    );
    expect(nextSlot(every, new Date('2027-01-01T00:00:06.000Z'), anchor)?.toISOString()).toBe(
      '2027-01-01T00:00:07.000Z',
    );
    const started = { kind: 'interval' as const, everyMs: 60_000, startAt: '2027-02-01T00:00:00Z' };
    expect(firstSlot(started, anchor, anchor)?.toISOString()).toBe('2027-02-01T00:00:00.000Z');
  });

  it('has no slot after a once has passed', () => {
    const once = { kind: 'once' as const, at: '2027-01-02T00:00:00Z' };
    expect(nextSlot(once, anchor, anchor)?.toISOString()).toBe('2027-01-02T00:00:00.000Z');
    expect(nextSlot(once, new Date('2027-01-02T00:00:00Z'), anchor)).toBeUndefined();
  });
});
