import type { ScheduleRule } from './schedule-frame.js';
import {
  ENGLISH_NUMBER_PATTERN,
  NUMBER_PATTERN,
  parseEnglishNumber,
  parseSpokenNumber,
} from './spoken-numbers.js';
import {
  CHINESE_WEEK_PREFIX as WEEK,
  CHINESE_WEEKDAY_CHAR as DAY,
  CHINESE_WEEKDAYS,
  ENGLISH_WEEKDAY_PATTERN as EN_DAY,
  englishWeekday,
} from './weekday-names.js';

const MINUTE_MS = 60_000;
const UNIT_MS: ReadonlyArray<[RegExp, number]> = [
  [/^(?:秒|sec|second)/i, 1000],
  [/^(?:分|min)/i, MINUTE_MS],
  [/^(?:小时|钟头|个小时|个钟头|h)/i, 60 * MINUTE_MS],
  [/^(?:天|day)/i, 24 * 60 * MINUTE_MS],
];
const DAY_MS = 24 * 60 * MINUTE_MS;

function unitMs(unit: string): number {
  return UNIT_MS.find(([pattern]) => pattern.test(unit))![1];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const EN_MONTH =
  '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)';

function monthNumber(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

/** Timezones a message may name ("北京时间", "Shanghai time"); anything else uses the caller's timezone. */
const NAMED_TIMEZONES: ReadonlyArray<[RegExp, string]> = [
  [/北京|上海|beijing|shanghai|china/i, 'Asia/Shanghai'],
  [/东京|tokyo|japan/i, 'Asia/Tokyo'],
  [/伦敦|london/i, 'Europe/London'],
  [/柏林|berlin/i, 'Europe/Berlin'],
  [/纽约|new york/i, 'America/New_York'],
  [/utc|gmt|协调世界时/i, 'UTC'],
];

/** Relative offsets from now, named timezones, and days for one-shots. */
export const DATE_RULES: readonly ScheduleRule[] = [
  {
    name: 'named-timezone',
    pattern:
      /(?:北京|上海|东京|伦敦|柏林|纽约)时间|\b(?:beijing|shanghai|china|tokyo|japan|london|berlin|new york)\s+time\b|\b(?:utc|gmt)\b/gi,
    apply(match, frame) {
      frame.timezone = NAMED_TIMEZONES.find(([pattern]) => pattern.test(match[0]))![1];
      return true;
    },
  },
  {
    // 20分钟后, 半小时后, 一个半小时以后, 3天后, 过10分钟.
    name: 'chinese-relative',
    pattern: new RegExp(
      `(?:过\\s*)?(${NUMBER_PATTERN})?\\s*(个)?\\s*(半)?\\s*(个)?\\s*(秒钟?|分钟|分|小时|钟头|天)\\s*(?:后|以后|之后)|过\\s*(${NUMBER_PATTERN})\\s*(?:个)?\\s*(分钟|小时|钟头)`,
      'g',
    ),
    apply(match, frame) {
      if (match[6]) {
        const amount = parseSpokenNumber(match[6]);
        if (!amount) return false;
        frame.relatives.push({ ms: amount * unitMs(match[7]!), text: match[0] });
        return true;
      }
      if (!match[1] && !match[3]) return false;
      const whole = match[1] ? parseSpokenNumber(match[1]) : 0;
      if (whole === undefined) return false;
      const unit = unitMs(match[5]!);
      const ms = whole * unit + (match[3] ? unit / 2 : 0);
      if (ms <= 0) return false;
      frame.relatives.push({ ms, ...(unit === DAY_MS && !match[3] ? { days: whole } : {}), text: match[0] });
      return true;
    },
  },
  {
    // in 20 minutes, in an hour, in half an hour, in an hour and a half, 2 hours from now.
    name: 'english-relative',
    pattern: new RegExp(
      `\\bin\\s+(?:(half\\s+an?\\s+hour)|(an?\\s+hour\\s+and\\s+a\\s+half)|(${ENGLISH_NUMBER_PATTERN})\\s+(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?))\\b|\\b(${ENGLISH_NUMBER_PATTERN})\\s+(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?)\\s+from\\s+now\\b`,
      'gi',
    ),
    apply(match, frame) {
      if (match[1]) frame.relatives.push({ ms: 30 * MINUTE_MS, text: match[0] });
      else if (match[2]) frame.relatives.push({ ms: 90 * MINUTE_MS, text: match[0] });
      else {
        const amount = parseEnglishNumber(match[3] ?? match[5]!);
        if (!amount) return false;
        const unit = unitMs(match[4] ?? match[6]!);
        frame.relatives.push({
          ms: amount * unit,
          ...(unit === DAY_MS ? { days: amount } : {}),
          text: match[0],
        });
      }
      return true;
    },
  },
  {
    name: 'chinese-day-word',
    pattern: /大后天|后天|明天|明日|今天|今日/g,
    apply(match, frame) {
      const days = { 大后天: 3, 后天: 2, 明天: 1, 明日: 1, 今天: 0, 今日: 0 }[match[0]]!;
      frame.dates.push({ date: { kind: 'offset', days }, text: match[0] });
      return true;
    },
  },
  {
    name: 'english-day-word',
    pattern: /\b(?:the\s+)?day\s+after\s+tomorrow\b|\btomorrow\b|\btoday\b/gi,
    apply(match, frame) {
      const lower = match[0].toLowerCase();
      const days = lower.includes('after') ? 2 : lower === 'tomorrow' ? 1 : 0;
      frame.dates.push({ date: { kind: 'offset', days }, text: match[0] });
      return true;
    },
  },
  {
    // 下周一, 下个星期五, 这周三, 本周五, 周五.
    name: 'chinese-weekday-date',
    pattern: new RegExp(`(下(?:个|一个)?|这(?:个)?|本)?${WEEK}(${DAY})`, 'g'),
    apply(match, frame) {
      const week = !match[1] ? 'coming' : match[1].startsWith('下') ? 'next' : 'this';
      frame.dates.push({
        date: { kind: 'weekday', weekday: CHINESE_WEEKDAYS[match[2]!]!, week },
        text: match[0],
      });
      return true;
    },
  },
  {
    // 2026年12月25日, 12月25号, 下个月3号, 15号.
    name: 'chinese-calendar-date',
    pattern: new RegExp(
      `(?:(\\d{4}|[零〇一二三四五六七八九]{4})\\s*年\\s*)?(${NUMBER_PATTERN})\\s*月\\s*(${NUMBER_PATTERN})\\s*(?:日|号)|(下(?:个|一个)?月|这个月|本月)?\\s*(${NUMBER_PATTERN})\\s*号`,
      'g',
    ),
    apply(match, frame) {
      if (match[2]) {
        const year = match[1] ? parseSpokenNumber(match[1]) : undefined;
        const month = parseSpokenNumber(match[2])!;
        const day = parseSpokenNumber(match[3]!)!;
        frame.dates.push({
          date: { kind: 'calendar', ...(year ? { year } : {}), month, day },
          text: match[0],
        });
        return true;
      }
      const day = parseSpokenNumber(match[5]!)!;
      const monthOffset = match[4]?.startsWith('下') ? 1 : 0;
      frame.dates.push({ date: { kind: 'month_day', day, monthOffset }, text: match[0] });
      return true;
    },
  },
  {
    name: 'iso-date',
    pattern: /(?<![\d-])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![\d-])/g,
    apply(match, frame) {
      const [year, month, day] = [match[1]!, match[2]!, match[3]!].map((part) => Number.parseInt(part, 10));
      frame.dates.push({ date: { kind: 'calendar', year: year!, month: month!, day: day! }, text: match[0] });
      return true;
    },
  },
  {
    // December 25, Dec 25th, 2026; 25 December; the 25th of December.
    name: 'english-calendar-date',
    pattern: new RegExp(
      `\\b(?:on\\s+)?(?:${EN_MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s*(\\d{4}))?|(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${EN_MONTH}(?:,?\\s*(\\d{4}))?)\\b`,
      'gi',
    ),
    apply(match, frame) {
      const month = monthNumber(match[1] ?? match[5]!);
      const day = Number.parseInt(match[2] ?? match[4]!, 10);
      const yearText = match[3] ?? match[6];
      const year = yearText ? Number.parseInt(yearText, 10) : undefined;
      frame.dates.push({ date: { kind: 'calendar', ...(year ? { year } : {}), month, day }, text: match[0] });
      return true;
    },
  },
  {
    // next Monday, this Friday, on Friday, Friday.
    name: 'english-weekday-date',
    pattern: new RegExp(
      `\\b(?:(next|this|on|coming)\\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\\b|\\b(next|this|on)\\s+(${EN_DAY})\\b`,
      'gi',
    ),
    apply(match, frame) {
      const qualifier = (match[1] ?? match[3])?.toLowerCase();
      const week = qualifier === 'next' ? 'next' : qualifier === 'this' ? 'this' : 'coming';
      const weekday = englishWeekday(match[2] ?? match[4]!)!;
      frame.dates.push({ date: { kind: 'weekday', weekday, week }, text: match[0] });
      return true;
    },
  },
];
