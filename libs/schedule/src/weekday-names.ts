/** Chinese weekday characters after 周/星期/礼拜, as cron day-of-week numbers (0 = Sunday). */
export const CHINESE_WEEKDAYS: Readonly<Record<string, number>> = {
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  日: 0,
  天: 0,
  七: 0,
};

/** The prefixes that make a Chinese weekday: 周一, 星期一, 礼拜一. */
export const CHINESE_WEEK_PREFIX = '(?:周|星期|礼拜)';

/** A Chinese weekday character. */
export const CHINESE_WEEKDAY_CHAR = '[一二三四五六日天七]';

/** English weekday names and abbreviations, longest first so that alternation picks the full name. */
export const ENGLISH_WEEKDAY_PATTERN =
  '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tues|thurs|thur|mon|tue|wed|thu|fri|sat|sun)';

const ENGLISH_WEEKDAYS: ReadonlyArray<[string, number]> = [
  ['sun', 0],
  ['mon', 1],
  ['tue', 2],
  ['wed', 3],
  ['thu', 4],
  ['fri', 5],
  ['sat', 6],
];

/** Cron day of week of an English name or abbreviation (`Mondays` included), undefined if none. */
export function englishWeekday(word: string): number | undefined {
  const lower = word.toLowerCase();
  return ENGLISH_WEEKDAYS.find(([prefix]) => lower.startsWith(prefix))?.[1];
}

/** Chinese names of the days of the week, indexed by cron day (0 = Sunday). */
export const CHINESE_DAY_NAMES = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'] as const;

/** English names of the days of the week, indexed by cron day (0 = Sunday). */
export const ENGLISH_DAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** Reads every weekday in a list such as 一三五, 一、三和五, 一到三, "mon, wed and fri"; ranges expand. */
export function collectWeekdays(list: string, language: 'zh' | 'en'): number[] {
  const days: number[] = [];
  const tokens =
    language === 'zh'
      ? [...list.matchAll(/(到|至|-|~)|([一二三四五六日天七])/g)]
      : [...list.matchAll(new RegExp(`(to|through|thru|-)|(${ENGLISH_WEEKDAY_PATTERN})`, 'gi'))];
  let rangeFrom: number | undefined;
  for (const token of tokens) {
    if (token[1]) {
      rangeFrom = days[days.length - 1];
      continue;
    }
    const day = language === 'zh' ? CHINESE_WEEKDAYS[token[2]!]! : englishWeekday(token[2]!)!;
    if (rangeFrom !== undefined) {
      // Monday-based range, so that 周五到周日 covers 5, 6, 0.
      const from = (rangeFrom + 6) % 7;
      const to = (day + 6) % 7;
      for (let index = from + 1; index <= to; index += 1) days.push((index + 1) % 7);
      rangeFrom = undefined;
    } else {
      days.push(day);
    }
  }
  return [...new Set(days)].sort((left, right) => left - right);
}
