import type { DayPeriod, ScheduleRule, WrittenTime } from './schedule-frame.js';
import { CONSUMED } from './schedule-text.js';
import { NUMBER_PATTERN, parseSpokenNumber } from './spoken-numbers.js';

/** Chinese words for parts of the day, longest first. */
const CHINESE_PERIODS: ReadonlyArray<[string, DayPeriod]> = [
  ['凌晨', 'early_morning'],
  ['清晨', 'morning'],
  ['早上', 'morning'],
  ['早晨', 'morning'],
  ['上午', 'forenoon'],
  ['中午', 'noon'],
  ['午后', 'afternoon'],
  ['下午', 'afternoon'],
  ['傍晚', 'dusk'],
  ['晚上', 'evening'],
  ['夜里', 'evening'],
  ['夜晚', 'evening'],
  ['半夜', 'midnight'],
  ['午夜', 'midnight'],
  ['深夜', 'midnight'],
  ['早', 'morning'],
  ['晚', 'evening'],
];
const CHINESE_PERIOD_PATTERN = `(${CHINESE_PERIODS.map(([word]) => word).join('|')})`;

const ENGLISH_PERIODS: ReadonlyArray<[RegExp, DayPeriod]> = [
  [/morning/i, 'morning'],
  [/afternoon/i, 'afternoon'],
  [/evening/i, 'dusk'],
  [/night/i, 'evening'],
];

/** The time a period stands for when no hour is given (每天早上 → 08:00). */
export const PERIOD_DEFAULT_HOUR: Readonly<Record<DayPeriod, number>> = {
  early_morning: 6,
  morning: 8,
  forenoon: 10,
  noon: 12,
  afternoon: 15,
  dusk: 18,
  evening: 20,
  midnight: 0,
};

/** Periods precise enough to stand alone as a time (中午 is 12:00, 半夜 is 00:00). */
export const PRECISE_PERIODS: ReadonlySet<DayPeriod> = new Set(['noon', 'midnight']);

/** Period of a Chinese word, undefined if it is none. */
export function chinesePeriod(word: string | undefined): DayPeriod | undefined {
  return word === undefined ? undefined : CHINESE_PERIODS.find(([name]) => name === word)?.[1];
}

/** Period of an English phrase ("in the morning", "at night"). */
export function englishPeriod(phrase: string): DayPeriod | undefined {
  return ENGLISH_PERIODS.find(([pattern]) => pattern.test(phrase))?.[1];
}

/** A written time on the 24-hour clock, or why it cannot be one. */
export type ResolvedTime =
  | {
      ok: true;
      hour: number;
      minute: number;
      /** The time belongs to the next calendar day (晚上12点, 半夜2点). */
      nextDay: boolean;
      /** Lower for a bare hour that could mean morning or evening. */
      confidence: number;
      /** The other reading of a bare hour 1–5 ("3点" → 03:00 or 15:00). */
      alternativeHour?: number;
    }
  | { ok: false };

/**
 * Resolves a written time, using `contextPeriod` (a period said elsewhere in the message, e.g. "every
 * morning … at 7") when the time has none of its own.
 */
export function resolveTimeOfDay(time: WrittenTime, contextPeriod?: DayPeriod): ResolvedTime {
  const { minute } = time;
  if (minute < 0 || minute > 59) return { ok: false };
  if (time.meridiem) {
    if (time.hour < 1 || time.hour > 12) return { ok: false };
    const hour = time.meridiem === 'am' ? time.hour % 12 : (time.hour % 12) + 12;
    return { ok: true, hour, minute, nextDay: false, confidence: 1 };
  }
  const period = time.period ?? (time.clock24 ? undefined : contextPeriod);
  if (period) {
    const shifted = shiftByPeriod(time.hour, period);
    if (!shifted) return { ok: false };
    return { ok: true, ...shifted, minute, confidence: 1 };
  }
  if (time.hour === 24 && minute === 0) return { ok: true, hour: 0, minute, nextDay: true, confidence: 0.95 };
  if (time.hour < 0 || time.hour > 23) return { ok: false };
  if (time.clock24 || time.hour === 0 || time.hour >= 12)
    return { ok: true, hour: time.hour, minute, nextDay: false, confidence: 1 };
  if (time.hour <= 5)
    return {
      ok: true,
      hour: time.hour,
      minute,
      nextDay: false,
      confidence: 0.5,
      alternativeHour: time.hour + 12,
    };
  // 6–11 without a period: morning is the usual reading, a little less sure in English ("at 7").
  return {
    ok: true,
    hour: time.hour,
    minute,
    nextDay: false,
    confidence: time.language === 'zh' ? 0.9 : 0.85,
  };
}

function shiftByPeriod(hour: number, period: DayPeriod): { hour: number; nextDay: boolean } | undefined {
  const same = { hour, nextDay: false };
  const plus12 = { hour: hour + 12, nextDay: false };
  switch (period) {
    case 'early_morning':
      if (hour === 12) return { hour: 0, nextDay: false };
      return hour >= 0 && hour <= 6 ? same : undefined;
    case 'morning':
    case 'forenoon':
      return hour >= 0 && hour <= 12 ? same : undefined;
    case 'noon':
      if (hour === 11 || hour === 12 || (hour >= 13 && hour <= 15)) return same;
      return hour >= 1 && hour <= 3 ? plus12 : undefined;
    case 'afternoon':
      if (hour >= 1 && hour <= 11) return plus12;
      return hour >= 12 && hour <= 18 ? same : undefined;
    case 'dusk':
      if (hour >= 4 && hour <= 8) return plus12;
      return hour >= 16 && hour <= 20 ? same : undefined;
    case 'evening':
      if (hour >= 5 && hour <= 11) return plus12;
      if (hour === 12 || hour === 0) return { hour: 0, nextDay: true };
      if (hour >= 1 && hour <= 4) return { hour, nextDay: true };
      return hour >= 17 && hour <= 23 ? same : undefined;
    case 'midnight':
      if (hour === 12 || hour === 0) return { hour: 0, nextDay: true };
      if (hour >= 1 && hour <= 4) return { hour, nextDay: true };
      return hour === 11 || hour === 23 ? { hour: 23, nextDay: false } : undefined;
  }
}

function minutesFromChinese(match: RegExpExecArray, first: number): number | undefined {
  if (match[first]) return 15;
  if (match[first + 1]) return 45;
  if (match[first + 2]) return 30;
  if (match[first + 3]) return 0;
  if (match[first + 4]) return parseSpokenNumber(match[first + 4]);
  return 0;
}

const MERIDIEM = '(a\\.?m\\.?|p\\.?m\\.?)';

function meridiemOf(text: string | undefined): 'am' | 'pm' | undefined {
  if (!text) return undefined;
  return text.toLowerCase().startsWith('a') ? 'am' : 'pm';
}

/** Rules that read times of day, most specific first. */
export const TIME_RULES: readonly ScheduleRule[] = [
  {
    // 下午3点, 三点半, 9点整, 十点一刻, 3点15分, 15时30分.
    name: 'chinese-clock',
    pattern: new RegExp(
      `${CHINESE_PERIOD_PATTERN}?\\s*(${NUMBER_PATTERN})\\s*(?:点钟|点|时)(?![点儿])\\s*(?:(一刻)|(三刻)|(半)|(整)|(${NUMBER_PATTERN})\\s*分?)?`,
      'g',
    ),
    apply(match, frame) {
      const hour = parseSpokenNumber(match[2]!);
      const minute = minutesFromChinese(match, 3);
      if (hour === undefined || minute === undefined) return false;
      // A lone 一点 with nothing around it is "a little" (快一点), not one o'clock.
      if (match[2] === '一' && !match[1] && match[0].trim() === '一点') return false;
      frame.times.push({
        hour,
        minute,
        period: chinesePeriod(match[1]),
        clock24: hour > 12,
        language: 'zh',
        text: match[0],
      });
      return true;
    },
  },
  {
    // 6:30pm, 18:30, 下午3:30, 9:05 a.m.
    name: 'clock-digits',
    pattern: new RegExp(
      `(?:(?:\\bat|@)\\s*)?${CHINESE_PERIOD_PATTERN}?\\s*(?<![\\d.:])(\\d{1,2}):(\\d{2})(?![\\d:])(?:\\s*${MERIDIEM}(?![a-z]))?`,
      'gi',
    ),
    apply(match, frame) {
      const hour = Number.parseInt(match[2]!, 10);
      const meridiem = meridiemOf(match[4]);
      frame.times.push({
        hour,
        minute: Number.parseInt(match[3]!, 10),
        period: chinesePeriod(match[1]),
        meridiem,
        clock24: meridiem === undefined && !match[1],
        language: match[1] ? 'zh' : 'en',
        text: match[0],
      });
      return true;
    },
  },
  {
    // 9am, 9 pm, 13pm (refused later: no such time).
    name: 'meridiem-hour',
    pattern: new RegExp(`(?:(?:\\bat|@)\\s*)?(?<![\\d.:])(\\d{1,2})\\s*${MERIDIEM}(?![a-z])`, 'gi'),
    apply(match, frame) {
      frame.times.push({
        hour: Number.parseInt(match[1]!, 10),
        minute: 0,
        meridiem: meridiemOf(match[2]),
        clock24: false,
        language: 'en',
        text: match[0],
      });
      return true;
    },
  },
  {
    name: 'noon-midnight',
    pattern: /\b(?:at\s+)?(noon|midday|midnight)\b/gi,
    apply(match, frame) {
      const midnight = match[1]!.toLowerCase() === 'midnight';
      frame.times.push({
        hour: 12,
        minute: 0,
        period: midnight ? 'midnight' : 'noon',
        clock24: false,
        language: 'en',
        text: match[0],
      });
      return true;
    },
  },
  {
    // "at 9", "at 7 o'clock", "9 o'clock": a bare hour, read with the message's period if any.
    name: 'bare-hour',
    pattern: /\b(?:(?:at|@)\s*(\d{1,2})(?:\s*o'?clock)?|(\d{1,2})\s*o'?clock)(?![\d:])/gi,
    apply(match, frame) {
      const hour = Number.parseInt(match[1] ?? match[2]!, 10);
      frame.times.push({ hour, minute: 0, clock24: hour > 12, language: 'en', text: match[0] });
      return true;
    },
  },
];

/** Rules that read a part of the day said without an hour (每天早上, "in the evening"). */
export const PERIOD_RULES: readonly ScheduleRule[] = [
  {
    // "in the morning", "this evening", and a bare part of the day right after a schedule part
    // ("tomorrow morning", "every weekday morning"); a bare "good morning" is not one.
    name: 'english-period',
    pattern: new RegExp(
      `(?:\\b(?:in the|this|at)\\s+|(?<=${CONSUMED} ?))(morning|afternoon|evening|night)\\b`,
      'gi',
    ),
    apply(match, frame) {
      frame.periods.push({ period: englishPeriod(match[1]!)!, text: match[0] });
      return true;
    },
  },
  {
    name: 'chinese-period',
    pattern: new RegExp(CHINESE_PERIOD_PATTERN.replace('|早|晚', ''), 'g'),
    apply(match, frame) {
      frame.periods.push({ period: chinesePeriod(match[1])!, text: match[0] });
      return true;
    },
  },
];
