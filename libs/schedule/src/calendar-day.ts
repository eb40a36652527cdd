import { DateTime } from 'luxon';
import type { DateReference } from './schedule-frame.js';

/** A resolved day, and how to move to the next fitting day when the time on it has already passed. */
export type CalendarDay =
  { ok: true; day: DateTime; roll?: (day: DateTime) => DateTime | undefined } | { ok: false };

const MAX_MONTHS_AHEAD = 12;

/** The start of the day a reference names, seen from `now` (in the schedule's timezone). */
export function resolveCalendarDay(reference: DateReference, now: DateTime): CalendarDay {
  const today = now.startOf('day');
  switch (reference.kind) {
    case 'offset':
      return { ok: true, day: today.plus({ days: reference.days }) };
    case 'weekday': {
      const target = reference.weekday === 0 ? 7 : reference.weekday;
      if (reference.week === 'coming') {
        const ahead = (target - now.weekday + 7) % 7;
        return { ok: true, day: today.plus({ days: ahead }), roll: (day) => day.plus({ weeks: 1 }) };
      }
      const week = today.startOf('week').plus({ weeks: reference.week === 'next' ? 1 : 0 });
      return { ok: true, day: week.plus({ days: target - 1 }) };
    }
    case 'calendar': {
      const at = (year: number): DateTime | undefined => {
        const day = DateTime.fromObject(
          { year, month: reference.month, day: reference.day },
          { zone: now.zone },
        );
        return day.isValid ? day : undefined;
      };
      if (reference.year !== undefined) {
        const day = at(reference.year);
        return day ? { ok: true, day } : { ok: false };
      }
      // No year: this year's date, or the next year that has it (29 February) once it has passed.
      for (let year = now.year; year <= now.year + 4; year += 1) {
        const day = at(year);
        if (day) return { ok: true, day, roll: (current) => nextYearWith(current, reference, now) };
      }
      return { ok: false };
    }
    case 'month_day': {
      const first = today.startOf('month').plus({ months: reference.monthOffset });
      for (let months = 0; months < MAX_MONTHS_AHEAD; months += 1) {
        const month = first.plus({ months });
        if (reference.day >= 1 && reference.day <= month.daysInMonth!) {
          const day = month.set({ day: reference.day });
          if (reference.monthOffset > 0 && months > 0) return { ok: false };
          return { ok: true, day, roll: (current) => nextMonthWith(current, reference.day) };
        }
        if (reference.day > 31 || reference.day < 1) return { ok: false };
      }
      return { ok: false };
    }
  }
}

function nextYearWith(current: DateTime, reference: { month: number; day: number }, now: DateTime) {
  for (let year = current.year + 1; year <= now.year + 8; year += 1) {
    const day = DateTime.fromObject({ year, month: reference.month, day: reference.day }, { zone: now.zone });
    if (day.isValid) return day;
  }
  return undefined;
}

function nextMonthWith(current: DateTime, dayOfMonth: number): DateTime | undefined {
  for (let months = 1; months <= MAX_MONTHS_AHEAD; months += 1) {
    const month = current.startOf('month').plus({ months });
    if (dayOfMonth <= month.daysInMonth!) return month.set({ day: dayOfMonth });
  }
  return undefined;
}
