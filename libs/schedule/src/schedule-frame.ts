import { consume } from './schedule-text.js';

/** A part of the day that shifts the hour (下午3点 → 15) or stands for a default time (每天早上). */
export type DayPeriod =
  'early_morning' | 'morning' | 'forenoon' | 'noon' | 'afternoon' | 'dusk' | 'evening' | 'midnight';

/** A time of day as written; {@link resolveTimeOfDay} turns it into a 24-hour clock time. */
export interface WrittenTime {
  hour: number;
  minute: number;
  period?: DayPeriod;
  meridiem?: 'am' | 'pm';
  /** Written as HH:MM or with an hour above 12: read on a 24-hour clock. */
  clock24: boolean;
  language: 'zh' | 'en';
  text: string;
}

/** A repeating rule. Weekdays are cron days (0 = Sunday). */
export type Recurrence =
  | { family: 'daily' }
  | { family: 'every_n_days'; days: number }
  | { family: 'weekly'; weekdays: number[] }
  | { family: 'weekdays' }
  | { family: 'weekends' }
  | { family: 'interval'; seconds: number }
  | { family: 'monthly'; days: number[]; lastDay?: true };

/** A day named for a one-shot. */
export type DateReference =
  | { kind: 'offset'; days: number }
  | { kind: 'weekday'; weekday: number; week: 'this' | 'next' | 'coming' }
  | { kind: 'calendar'; year?: number; month: number; day: number }
  | { kind: 'month_day'; day: number; monthOffset: number };

/** Everything the rules found in one message. */
export interface ScheduleFrame {
  recurrences: Array<{ recurrence: Recurrence; text: string; period?: DayPeriod }>;
  dates: Array<{ date: DateReference; text: string }>;
  times: WrittenTime[];
  periods: Array<{ period: DayPeriod; text: string }>;
  /** Offsets from now ("20分钟后", "in 2 hours"); whole days are kept apart so a time can join them. */
  relatives: Array<{ ms: number; days?: number; text: string }>;
  problems: Array<{ problem: 'invalid_time' | 'invalid_date'; text: string }>;
  timezone?: string;
}

/** An empty frame. */
export function emptyFrame(): ScheduleFrame {
  return { recurrences: [], dates: [], times: [], periods: [], relatives: [], problems: [] };
}

/**
 * One rule: a global pattern and what a match adds to the frame. `apply` returns false to leave the match
 * unconsumed (it did not mean a schedule after all). Patterns hold no nested quantifiers, so each runs in
 * linear time over the bounded text.
 */
export interface ScheduleRule {
  name: string;
  pattern: RegExp;
  apply(match: RegExpExecArray, frame: ScheduleFrame): boolean;
}

/**
 * Runs the rules in order. Each consumed match is blanked out, so a later rule never sees it; what stays
 * unconsumed is the task text.
 */
export function runScheduleRules(text: string, rules: readonly ScheduleRule[], frame: ScheduleFrame): string {
  let rest = text;
  for (const rule of rules) {
    const spans: Array<[number, number]> = [];
    rule.pattern.lastIndex = 0;
    for (const match of rest.matchAll(rule.pattern)) {
      if (match[0].length === 0) continue;
      if (rule.apply(match as RegExpExecArray, frame))
        spans.push([match.index, match.index + match[0].length]);
    }
    for (const [start, end] of spans) rest = consume(rest, start, end);
  }
  return rest;
}
