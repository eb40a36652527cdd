import { describe, expect, it } from '@jest/globals';
import { routineFromFlags } from './routine-flags.js';
import { parseDuration, timeInWords, wallTime } from './time-in-words.js';

describe('routineFromFlags', () => {
  it('builds a weekday Shanghai cron prompt routine with guardrails', () => {
    expect(
      routineFromFlags([
        '--name',
        'incidents',
        '--cron',
        '0 9 * * 1-5',
        '--tz',
        'Asia/Shanghai',
        '--prompt',
        'Summarise the open incidents',
        '--cooldown',
        '1h',
        '--catch-up',
        'once',
      ]),
    ).toEqual({
      name: 'incidents',
      trigger: { kind: 'cron', expression: '0 9 * * 1-5', timezone: 'Asia/Shanghai' },
      action: { kind: 'prompt', prompt: 'Summarise the open incidents' },
      guardrails: { cooldownMs: 3_600_000, catchUp: 'once' },
    });
  });

  it('refuses missing or doubled triggers and actions, bad JSON and bad policies', () => {
    expect(() => routineFromFlags(['--name', 'x', '--manual'])).toThrow(/exactly one action/);
    expect(() => routineFromFlags(['--name', 'x', '--manual', '--webhook', '--reminder', 'r'])).toThrow(
      /exactly one trigger/,
    );
    expect(() => routineFromFlags(['--name', 'x', '--manual', '--tool', 'echo', '--params', '{'])).toThrow(
      /JSON object/,
    );
    expect(() =>
      routineFromFlags(['--name', 'x', '--manual', '--reminder', 'r', '--catch-up', 'some']),
    ).toThrow(/skip, once or all/);
    expect(() => routineFromFlags(['--manual', '--reminder', 'r'])).toThrow(/--name/);
  });
});

describe('time in words', () => {
  const now = new Date('2027-01-01T00:00:00Z');
  it('says how far and which way', () => {
    expect(timeInWords(new Date('2027-01-01T00:03:30Z'), now)).toBe('in 3 minutes');
    expect(timeInWords(new Date('2026-12-31T22:00:00Z'), now)).toBe('2 hours ago');
    expect(timeInWords(new Date('2027-01-02T00:00:00Z'), now)).toBe('in 1 day');
    expect(timeInWords(now, now)).toBe('now');
  });

  it('shows wall time in the routine timezone and parses durations', () => {
    expect(wallTime(new Date('2027-01-04T01:00:00Z'), 'Asia/Shanghai')).toBe(
      '2027-01-04 09:00:00 Asia/Shanghai',
    );
    expect(parseDuration('5m')).toBe(300_000);
    expect(() => parseDuration('soon')).toThrow(/not a duration/);
  });
});
