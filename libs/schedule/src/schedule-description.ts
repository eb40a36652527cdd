import type { ScheduleLanguage } from '@talon/contracts';
import type { DateTime } from 'luxon';
import type { Recurrence } from './schedule-frame.js';
import { CHINESE_DAY_NAMES, ENGLISH_DAY_NAMES } from './weekday-names.js';

/** A clock time as HH:MM. */
export interface ClockTime {
  hour: number;
  minute: number;
}

/** HH:MM with leading zeros. */
export function formatClock({ hour, minute }: ClockTime): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

function listTimes(times: readonly ClockTime[], language: ScheduleLanguage): string {
  const clocks = times.map(formatClock);
  return language === 'zh' ? clocks.join('、') : joinEnglish(clocks);
}

function joinEnglish(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

/** "每天" / "every day" and friends: the repeating part without the time. */
export function describeRecurrence(recurrence: Recurrence, language: ScheduleLanguage): string {
  const zh = language === 'zh';
  switch (recurrence.family) {
    case 'daily':
      return zh ? '每天' : 'every day';
    case 'every_n_days':
      return zh ? `每 ${recurrence.days} 天` : `every ${recurrence.days} days`;
    case 'weekly':
      if (recurrence.weekdays.length === 0) return zh ? '每周' : 'every week';
      return zh
        ? `每${recurrence.weekdays.map((day) => CHINESE_DAY_NAMES[day]).join('、')}`
        : `every ${joinEnglish(recurrence.weekdays.map((day) => ENGLISH_DAY_NAMES[day]!))}`;
    case 'weekdays':
      return zh ? '每个工作日' : 'every weekday';
    case 'weekends':
      return zh ? '每个周末' : 'every weekend';
    case 'interval': {
      const { seconds } = recurrence;
      if (seconds % 60 !== 0) return zh ? `每 ${seconds} 秒` : `every ${seconds} seconds`;
      const minutes = seconds / 60;
      if (minutes % 60 === 0) {
        const hours = minutes / 60;
        if (hours === 1) return zh ? '每小时' : 'every hour';
        return zh ? `每 ${hours} 小时` : `every ${hours} hours`;
      }
      if (minutes === 1) return zh ? '每分钟' : 'every minute';
      return zh ? `每 ${minutes} 分钟` : `every ${minutes} minutes`;
    }
    case 'monthly':
      if (recurrence.lastDay) return zh ? '每月最后一天' : 'on the last day of every month';
      if (recurrence.days.length === 0) return zh ? '每月' : 'every month';
      return zh
        ? `每月 ${recurrence.days.join('、')} 号`
        : `on the ${joinEnglish(recurrence.days.map(ordinal))} of every month`;
  }
}

/** A repeating schedule in words: "每天 09:00", "every weekday at 09:00". */
export function describeRepeating(
  recurrence: Recurrence,
  times: readonly ClockTime[],
  language: ScheduleLanguage,
): string {
  const base = describeRecurrence(recurrence, language);
  if (times.length === 0) return base;
  return language === 'zh'
    ? `${base} ${listTimes(times, language)}`
    : `${base} at ${listTimes(times, language)}`;
}

/** A day in words, relative to today when near: "明天（12月2日 周三）", "tomorrow (Wed 2 Dec)". */
export function describeDay(day: DateTime, now: DateTime, language: ScheduleLanguage): string {
  const offset = Math.round(day.startOf('day').diff(now.startOf('day'), 'days').days);
  const weekday = day.weekday % 7;
  if (language === 'zh') {
    const date =
      day.year === now.year ? `${day.month}月${day.day}日` : `${day.year}年${day.month}月${day.day}日`;
    const near = ['今天', '明天', '后天'][offset];
    return near
      ? `${near}（${date} ${CHINESE_DAY_NAMES[weekday]}）`
      : `${date}（${CHINESE_DAY_NAMES[weekday]}）`;
  }
  const date = `${ENGLISH_DAY_NAMES[weekday]!.slice(0, 3)} ${day.day} ${day.setLocale('en').toFormat('LLL')}${
    day.year === now.year ? '' : ` ${day.year}`
  }`;
  const near = ['today', 'tomorrow'][offset];
  return near ? `${near} (${date})` : date;
}

/** A one-shot in words: "明天（12月2日 周三）15:00", "tomorrow (Wed 2 Dec) at 15:00". */
export function describeOnce(at: DateTime, now: DateTime, language: ScheduleLanguage): string {
  const day = describeDay(at, now, language);
  const seconds = at.second === 0 ? '' : `:${String(at.second).padStart(2, '0')}`;
  const clock = formatClock({ hour: at.hour, minute: at.minute }) + seconds;
  return language === 'zh' ? `${day}${clock}` : `${day} at ${clock}`;
}
