import type { Recurrence, ScheduleFrame, ScheduleRule } from './schedule-frame.js';
import {
  ENGLISH_NUMBER_PATTERN,
  NUMBER_PATTERN,
  parseEnglishNumber,
  parseSpokenNumber,
} from './spoken-numbers.js';
import { englishPeriod } from './time-of-day.js';
import {
  CHINESE_WEEK_PREFIX as WEEK,
  CHINESE_WEEKDAY_CHAR as DAY,
  ENGLISH_WEEKDAY_PATTERN as EN_DAY,
  collectWeekdays,
} from './weekday-names.js';

function add(frame: ScheduleFrame, recurrence: Recurrence, text: string, period?: string): true {
  frame.recurrences.push({ recurrence, text, ...(period ? { period: englishPeriod(period)! } : {}) });
  return true;
}

/** Interval in seconds from a number and a unit (秒/分钟/小时, seconds/minutes/hours); undefined for 0 or too big. */
function intervalSeconds(amount: number | undefined, unit: string): number | undefined {
  if (amount === undefined || amount <= 0 || amount > 100_000) return undefined;
  if (/^(?:秒|sec)/i.test(unit)) return amount;
  return /^(?:小时|钟头|个小时|个钟头|h)/i.test(unit) ? amount * 3600 : amount * 60;
}

const DAY_LIST = `${DAY}(?:\\s*[、,，和及与跟]?\\s*(?:到|至|-|~)?\\s*${WEEK}?${DAY})*`;
const EN_DAY_LIST = `${EN_DAY}s?(?:\\s*(?:,\\s*and|,|and|&|to|through|thru|-)\\s*${EN_DAY}s?)*`;
// "daily"/"weekly" before a noun is an adjective ("the weekly report"), not a schedule.
const NOT_ADJECTIVE = '(?!\\s+(?!at\\b|on\\b|from\\b|in\\b|until\\b|starting\\b|and\\b|to\\b)[a-z])';
const ORDINAL = '(\\d{1,2})(?:st|nd|rd|th)?';

/**
 * Repeating schedules, most specific first: intervals and ranges before weekday lists, lists before the
 * bare 每周/每月 that lack a day.
 */
export const RECURRENCE_RULES: readonly ScheduleRule[] = [
  {
    // 每隔15分钟, 每30分钟, 每半小时, 每隔两个小时, 每小时, 每分钟, 每一个半小时, 每隔30秒.
    name: 'chinese-interval',
    pattern: new RegExp(
      `每(?:隔)?\\s*(${NUMBER_PATTERN})?\\s*(个)?\\s*(半)?\\s*(个)?\\s*(秒钟|秒|分钟|小时|钟头)`,
      'g',
    ),
    apply(match, frame) {
      const whole = match[1] ? parseSpokenNumber(match[1]) : match[3] ? 0 : 1;
      const unit = intervalSeconds(1, match[5]!)!;
      if (whole === undefined || whole > 100_000) return false;
      const seconds = whole * unit + (match[3] ? unit / 2 : 0);
      if (seconds < 1 || !Number.isInteger(seconds)) return false;
      return add(frame, { family: 'interval', seconds }, match[0]);
    },
  },
  {
    name: 'english-interval',
    pattern: new RegExp(
      `\\bevery\\s+(?:(half\\s+(?:an\\s+)?hour)|(${ENGLISH_NUMBER_PATTERN}|other)?\\s*(seconds?|secs?|minutes?|mins?|hours?|hrs?|h)\\b)|\\bhourly\\b`,
      'gi',
    ),
    apply(match, frame) {
      if (/^hourly$/i.test(match[0])) return add(frame, { family: 'interval', seconds: 3600 }, match[0]);
      if (match[1]) return add(frame, { family: 'interval', seconds: 1800 }, match[0]);
      const amount = !match[2] ? 1 : match[2].toLowerCase() === 'other' ? 2 : parseEnglishNumber(match[2]);
      const seconds = intervalSeconds(amount, match[3]!);
      return seconds === undefined ? false : add(frame, { family: 'interval', seconds }, match[0]);
    },
  },
  {
    name: 'chinese-weekdays',
    pattern: new RegExp(`(?:每个?|每一个)?(?:工作日|${WEEK}一\\s*(?:到|至|-|~)\\s*${WEEK}?五)`, 'g'),
    apply: (match, frame) => add(frame, { family: 'weekdays' }, match[0]),
  },
  {
    name: 'english-weekdays',
    pattern:
      /\b(?:(?:every|each|on)\s+)?(?:weekdays?|work\s*days?|working\s+days?|business\s+days?)\b|\b(?:mon(?:day)?)\s*(?:-|to|through|thru)\s*(?:fri(?:day)?)\b/gi,
    apply: (match, frame) => add(frame, { family: 'weekdays' }, match[0]),
  },
  {
    name: 'chinese-weekends',
    pattern: new RegExp(
      `(?:每个?|每一个)?(?:周末|双休日|${WEEK}六\\s*(?:和|、|,|与|及)\\s*${WEEK}?[日天])`,
      'g',
    ),
    apply: (match, frame) => add(frame, { family: 'weekends' }, match[0]),
  },
  {
    name: 'english-weekends',
    pattern: /\b(?:(?:every|each|on)\s+)?weekends?\b/gi,
    apply: (match, frame) => add(frame, { family: 'weekends' }, match[0]),
  },
  {
    // 每月最后一天, 每个月底, "the last day of every month": cron day L.
    name: 'monthly-last-day',
    pattern:
      /每(?:个|一个)?月(?:的)?\s*(?:最后一天|最后1天|月底)|每个?月底|\b(?:on\s+)?the\s+last\s+day\s+of\s+(?:every|each)\s+month\b|\b(?:every|each)\s+month\s+on\s+the\s+last\s+day\b/gi,
    apply: (match, frame) => add(frame, { family: 'monthly', days: [], lastDay: true }, match[0]),
  },
  {
    // 每月15号, 每个月的1号, 每月1号和15号.
    name: 'chinese-monthly',
    pattern: new RegExp(
      `每(?:个|一个)?月(?:的)?\\s*(${NUMBER_PATTERN})\\s*(?:号|日)((?:\\s*[、,，和及与跟]\\s*${NUMBER_PATTERN}\\s*(?:号|日)?)*)`,
      'g',
    ),
    apply(match, frame) {
      const days = [
        match[1]!,
        ...[...(match[2] ?? '').matchAll(new RegExp(NUMBER_PATTERN, 'g'))].map((m) => m[0]),
      ]
        .map((text) => parseSpokenNumber(text))
        .filter((day): day is number => day !== undefined);
      if (days.some((day) => day < 1 || day > 31)) {
        frame.problems.push({ problem: 'invalid_date', text: match[0] });
        return true;
      }
      return add(frame, { family: 'monthly', days: [...new Set(days)].sort((a, b) => a - b) }, match[0]);
    },
  },
  {
    name: 'english-monthly',
    pattern: new RegExp(
      `\\b(?:(?:every|each)\\s+month|monthly)\\s+on\\s+the\\s+${ORDINAL}\\b|\\b(?:on\\s+)?the\\s+${ORDINAL}\\s+of\\s+(?:every|each)\\s+month\\b`,
      'gi',
    ),
    apply(match, frame) {
      const day = Number.parseInt(match[1] ?? match[2]!, 10);
      if (day < 1 || day > 31) {
        frame.problems.push({ problem: 'invalid_date', text: match[0] });
        return true;
      }
      return add(frame, { family: 'monthly', days: [day] }, match[0]);
    },
  },
  {
    // 每周一, 每周一三五, 每周一、周三, 每个星期五, 每周一到周三.
    name: 'chinese-weekly',
    pattern: new RegExp(`(?:每(?:个|一个)?|逢)${WEEK}(${DAY_LIST})`, 'g'),
    apply: (match, frame) =>
      add(frame, { family: 'weekly', weekdays: collectWeekdays(match[1]!, 'zh') }, match[0]),
  },
  {
    name: 'english-weekly',
    pattern: new RegExp(
      `\\b(?:(?:every|each)\\s+(${EN_DAY_LIST})|on\\s+(${EN_DAY}s(?:\\s*(?:,\\s*and|,|and|&)\\s*${EN_DAY}s)*)|weekly\\s+on\\s+(${EN_DAY_LIST}))\\b`,
      'gi',
    ),
    apply(match, frame) {
      const list = match[1] ?? match[2] ?? match[3]!;
      return add(frame, { family: 'weekly', weekdays: collectWeekdays(list, 'en') }, match[0]);
    },
  },
  {
    // 每3天; 每隔一天 and 隔天 skip a day (every 2 days), 每隔两天 skips two (every 3 days).
    name: 'chinese-every-n-days',
    pattern: new RegExp(`每(隔)?\\s*(${NUMBER_PATTERN})\\s*天|隔天`, 'g'),
    apply(match, frame) {
      const written = match[2] ? parseSpokenNumber(match[2]) : 1;
      const days = written === undefined ? undefined : match[1] || !match[2] ? written + 1 : written;
      if (days === undefined || days < 1 || days > 366) return false;
      return add(frame, days === 1 ? { family: 'daily' } : { family: 'every_n_days', days }, match[0]);
    },
  },
  {
    name: 'english-every-n-days',
    pattern: new RegExp(`\\bevery\\s+(${ENGLISH_NUMBER_PATTERN}|other)\\s+days?\\b`, 'gi'),
    apply(match, frame) {
      const days = match[1]!.toLowerCase() === 'other' ? 2 : parseEnglishNumber(match[1]!);
      if (days === undefined || days < 1 || days > 366) return false;
      return add(frame, days === 1 ? { family: 'daily' } : { family: 'every_n_days', days }, match[0]);
    },
  },
  {
    name: 'chinese-daily',
    pattern: /每天|每日|(?<![今明后昨前每])天天|每一天/g,
    apply: (match, frame) => add(frame, { family: 'daily' }, match[0]),
  },
  {
    name: 'english-daily',
    pattern: new RegExp(
      `\\b(?:(?:every|each)\\s+(?:single\\s+)?(day|morning|afternoon|evening|night)\\b|daily\\b${NOT_ADJECTIVE})`,
      'gi',
    ),
    apply: (match, frame) =>
      add(frame, { family: 'daily' }, match[0], match[1] && match[1] !== 'day' ? match[1] : undefined),
  },
  {
    // A week or month with no day named: a schedule with a piece missing.
    name: 'week-or-month-without-day',
    pattern: new RegExp(
      `每(?:个|一个)?(?:${WEEK}|月)|\\b(?:every|each)\\s+(?:week|month)\\b|\\b(?:weekly|monthly)\\b${NOT_ADJECTIVE}`,
      'gi',
    ),
    apply(match, frame) {
      const monthly = /月|month/i.test(match[0]);
      return add(
        frame,
        monthly ? { family: 'monthly', days: [] } : { family: 'weekly', weekdays: [] },
        match[0],
      );
    },
  },
];
