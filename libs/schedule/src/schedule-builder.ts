import type {
  ScheduleCandidate,
  ScheduleFamily,
  ScheduleLanguage,
  ScheduleParseResult,
  ScheduleProblem,
  ScheduleSpec,
} from '@talon/contracts';
import { Cron } from 'croner';
import { DateTime } from 'luxon';
import { resolveCalendarDay } from './calendar-day.js';
import type { DayPeriod, Recurrence, ScheduleFrame } from './schedule-frame.js';
import { describeOnce, describeRecurrence, describeRepeating } from './schedule-description.js';
import { scheduleQuestion, type QuestionFacts } from './schedule-questions.js';
import type { ScheduleTask } from './schedule-task.js';
import { PERIOD_DEFAULT_HOUR, PRECISE_PERIODS, resolveTimeOfDay } from './time-of-day.js';

/** The threshold of an exact result. */
export const EXACT_CONFIDENCE = 0.8;

const DAY_MS = 86_400_000;
const FAMILY_CONFIDENCE: Readonly<Record<ScheduleFamily, number>> = {
  daily: 0.95,
  every_n_days: 0.9,
  weekly: 0.95,
  weekdays: 0.95,
  weekends: 0.9,
  interval: 0.95,
  monthly: 0.9,
  once: 0.95,
};
const DEFAULT_TIMES = [
  { hour: 9, minute: 0, nextDay: false },
  { hour: 20, minute: 0, nextDay: false },
];

interface Time {
  hour: number;
  minute: number;
  nextDay: boolean;
  confidence: number;
}

type TimeChoice =
  | { kind: 'ok'; times: Time[] }
  | {
      kind: 'choose';
      problem: 'missing_time' | 'ambiguous_hour' | 'multiple_times';
      options: Time[];
      words: string[];
    };

/** What the builder needs besides the frame. */
export interface BuildInput {
  frame: ScheduleFrame;
  task: ScheduleTask;
  language: ScheduleLanguage;
  timezone: string;
  now: DateTime;
}

type Reading = Omit<ScheduleCandidate, 'schedule'> & { schedule?: ScheduleSpec; problem?: ScheduleProblem };

/** Turns what the rules found into the parser's answer. The frame holds at least one schedule part. */
export function buildScheduleResult(input: BuildInput): ScheduleParseResult {
  const { frame, task, language } = input;
  const timezone = input.timezone;
  const now = input.now.setZone(timezone);
  const base = {
    task: task.task,
    target: task.target,
    ...(task.hand !== undefined ? { hand: task.hand } : {}),
    language,
    timezone,
  };
  const unclear = (
    problem: ScheduleProblem,
    facts: Omit<QuestionFacts, 'target'> = {},
  ): ScheduleParseResult => ({
    kind: 'unclear',
    problem,
    question: scheduleQuestion(problem, { ...facts, target: task.target }, language),
    ...base,
  });

  const problem = frame.problems[0];
  if (problem) return unclear(problem.problem, { words: [problem.text] });

  const contradiction = findContradiction(frame);
  if (contradiction) return unclear('contradictory', { words: contradiction });

  const recurrence = frame.recurrences[0];
  const contextPeriod = recurrence?.period ?? frame.periods[0]?.period;
  const times: Time[] = [];
  const timeWords: string[] = [];
  for (const written of frame.times) {
    const resolved = resolveTimeOfDay(written, contextPeriod);
    if (!resolved.ok) return unclear('invalid_time', { words: [written.text] });
    timeWords.push(written.text);
    if (resolved.alternativeHour !== undefined) {
      const options = [resolved, { ...resolved, hour: resolved.alternativeHour }].map((time) => ({
        ...time,
        confidence: 0.5,
      }));
      return choose({
        kind: 'choose',
        problem: 'ambiguous_hour',
        options,
        words: [written.text],
      });
    }
    if (!times.some((time) => time.hour === resolved.hour && time.minute === resolved.minute))
      times.push(resolved);
  }

  // Intervals and offsets from now ("every 15 minutes", "20分钟后") need no time of day.
  const relative = frame.relatives[0];
  const timeless =
    recurrence?.recurrence.family === 'interval' ||
    (relative !== undefined && (relative.days === undefined || (times.length === 0 && !contextPeriod)));
  if (timeless) return choose({ kind: 'ok', times: [] });
  if (recurrence && isMissingDay(recurrence.recurrence)) {
    // 每周 / every month with no day: offer the first day (Monday, the 1st) at the time given or 09:00.
    const filled: Recurrence =
      recurrence.recurrence.family === 'weekly'
        ? { family: 'weekly', weekdays: [1] }
        : { family: 'monthly', days: [1] };
    const filledInput = {
      ...input,
      frame: { ...frame, recurrences: [{ ...recurrence, recurrence: filled }] },
    };
    const hour = contextPeriod ? PERIOD_DEFAULT_HOUR[contextPeriod] : 9;
    const options = times.length > 0 ? times : [{ hour, minute: 0, nextDay: false, confidence: 0.6 }];
    const candidates = options.map(
      (time) => ({ ...read(filledInput, now, [time]), confidence: 0.6 }) as ScheduleCandidate,
    );
    return {
      kind: 'ambiguous',
      problem: 'missing_day',
      question: scheduleQuestion(
        'missing_day',
        {
          when: describeRecurrence(recurrence.recurrence, language),
          options: candidates.map((candidate) => candidate.description),
          target: task.target,
        },
        language,
      ),
      candidates,
      ...base,
    };
  }
  return choose(chooseTimes(times, timeWords, contextPeriod, recurrence !== undefined));

  /** Reads the message with the chosen time(s), or with each option, and answers accordingly. */
  function choose(choice: TimeChoice): ScheduleParseResult {
    let readings: Reading[] =
      choice.kind === 'ok'
        ? [read(input, now, choice.times)]
        : choice.options.map((option) => read(input, now, [option]));
    // Of several readings, the ones already in the past are no choice at all ("今天3点" at 10:00 is 15:00).
    const future = readings.filter((reading) => reading.problem !== 'in_past');
    // An hour with one reading left in the future is that reading ("今天3点" said at 10:00 is 15:00).
    if (choice.kind === 'choose' && choice.problem === 'ambiguous_hour' && future.length === 1) {
      const option = choice.options[readings.indexOf(future[0]!)]!;
      return choose({ kind: 'ok', times: [{ ...option, confidence: 0.85 }] });
    }
    if (choice.kind === 'choose' && future.length > 0) readings = future;
    const failed = readings.find((reading) => reading.problem !== undefined);
    if (failed?.problem)
      return unclear(failed.problem, { when: failed.description, words: [failed.description] });
    const candidates = readings as ScheduleCandidate[];
    if (choice.kind === 'choose') {
      const when = recurrence
        ? describeRecurrence(recurrence.recurrence, language)
        : (frame.dates[0]?.text.trim() ?? '');
      return {
        kind: 'ambiguous',
        problem: choice.problem,
        question: scheduleQuestion(
          choice.problem,
          { when, words: choice.words, options: candidates.map((c) => c.description), target: task.target },
          language,
        ),
        candidates,
        ...base,
      };
    }
    const [reading] = candidates;
    if (base.task.length === 0) {
      return {
        kind: 'ambiguous',
        problem: 'missing_task',
        question: scheduleQuestion(
          'missing_task',
          { when: reading!.description, target: task.target },
          language,
        ),
        candidates: [reading!],
        ...base,
      };
    }
    if (reading!.confidence < EXACT_CONFIDENCE) {
      return {
        kind: 'ambiguous',
        problem: 'ambiguous_hour',
        question: scheduleQuestion(
          'ambiguous_hour',
          { options: [reading!.description], target: task.target },
          language,
        ),
        candidates: [reading!],
        ...base,
      };
    }
    return { kind: 'exact', ...reading!, ...base };
  }
}

function isMissingDay(recurrence: Recurrence | undefined): boolean {
  return (
    (recurrence?.family === 'weekly' && recurrence.weekdays.length === 0) ||
    (recurrence?.family === 'monthly' && recurrence.days.length === 0 && !recurrence.lastDay)
  );
}

function findContradiction(frame: ScheduleFrame): string[] | undefined {
  const hasTime = frame.times.length > 0;
  const [first, second] = frame.recurrences;
  if (first && second && JSON.stringify(first.recurrence) !== JSON.stringify(second.recurrence))
    return [first.text, second.text];
  const oneShot = frame.dates[0] ?? frame.relatives[0];
  if (first && oneShot) return [first.text, oneShot.text];
  const [date, otherDate] = frame.dates;
  if (date && otherDate && JSON.stringify(date.date) !== JSON.stringify(otherDate.date))
    return [date.text, otherDate.text];
  const [relative, otherRelative] = frame.relatives;
  if (relative && otherRelative) return [relative.text, otherRelative.text];
  if (relative && date) return [date.text, relative.text];
  if (relative && relative.days === undefined && hasTime) return [relative.text, frame.times[0]!.text];
  if (first?.recurrence.family === 'interval' && hasTime) return [first.text, frame.times[0]!.text];
  return undefined;
}

function chooseTimes(
  times: Time[],
  words: string[],
  period: DayPeriod | undefined,
  repeating: boolean,
): TimeChoice {
  if (times.length === 0) {
    if (period && PRECISE_PERIODS.has(period))
      return {
        kind: 'ok',
        times: [
          { hour: PERIOD_DEFAULT_HOUR[period], minute: 0, nextDay: period === 'midnight', confidence: 0.9 },
        ],
      };
    const options = period
      ? [{ hour: PERIOD_DEFAULT_HOUR[period], minute: 0, nextDay: false, confidence: 0.6 }]
      : DEFAULT_TIMES.map((time) => ({ ...time, confidence: 0.6 }));
    return { kind: 'choose', problem: 'missing_time', options, words: [] };
  }
  if (times.length === 1) return { kind: 'ok', times };
  const listable = repeating && times.every((time) => time.minute === times[0]!.minute && !time.nextDay);
  if (listable) return { kind: 'ok', times: [...times].sort((left, right) => left.hour - right.hour) };
  return { kind: 'choose', problem: 'multiple_times', options: times, words };
}

/** One reading of the message with the given times: a candidate, or the problem it runs into. */
function read(input: BuildInput, now: DateTime, times: Time[]): Reading {
  const { frame, language, timezone } = input;
  const timeConfidence = Math.min(1, ...times.map((time) => time.confidence));
  const recurrence = frame.recurrences[0]?.recurrence;
  if (recurrence) {
    const confidence = Math.min(familyConfidence(recurrence), timeConfidence);
    const shown = times.map(({ hour, minute }) => ({ hour, minute }));
    const description = describeRepeating(
      recurrence,
      recurrence.family === 'interval' ? [] : shown,
      language,
    );
    const schedule = repeatingSpec(recurrence, times, now, timezone);
    return { family: recurrence.family, schedule, description, confidence };
  }
  const relative = frame.relatives[0];
  if (relative && (relative.days === undefined || times.length === 0)) {
    const at = now.plus({ milliseconds: relative.ms }).set({ millisecond: 0 });
    const confidence = relative.days === undefined ? FAMILY_CONFIDENCE.once : 0.85;
    return once(at, now, language, timezone, confidence);
  }
  const reference = relative ? { kind: 'offset' as const, days: relative.days! } : frame.dates[0]?.date;
  const resolved = reference
    ? resolveCalendarDay(reference, now)
    : { ok: true as const, day: now.startOf('day'), roll: (day: DateTime) => day.plus({ days: 1 }) };
  if (!resolved.ok)
    return {
      family: 'once',
      description: frame.dates[0]?.text ?? '',
      confidence: 0,
      problem: 'invalid_date',
    };
  const time = times[0]!;
  let at = atTime(resolved.day, time);
  let confidence = Math.min(reference ? FAMILY_CONFIDENCE.once : 0.9, timeConfidence);
  if (at <= now && resolved.roll) {
    const next = resolved.roll(resolved.day);
    if (next) at = atTime(next, time);
    confidence = Math.min(confidence, 0.85);
  }
  if (at <= now) return { ...once(at, now, language, timezone, confidence), problem: 'in_past' };
  return once(at, now, language, timezone, confidence);
}

function once(
  at: DateTime,
  now: DateTime,
  language: ScheduleLanguage,
  timezone: string,
  confidence: number,
): Reading {
  return {
    family: 'once',
    schedule: { type: 'once', at: at.toISO({ suppressMilliseconds: true })!, timezone },
    description: describeOnce(at, now, language),
    confidence,
  };
}

function atTime(day: DateTime, time: Time): DateTime {
  return day
    .plus({ days: time.nextDay ? 1 : 0 })
    .set({ hour: time.hour, minute: time.minute, second: 0, millisecond: 0 });
}

function familyConfidence(recurrence: Recurrence): number {
  if (recurrence.family === 'monthly' && recurrence.days.some((day) => day > 28)) return 0.85;
  return FAMILY_CONFIDENCE[recurrence.family];
}

function repeatingSpec(recurrence: Recurrence, times: Time[], now: DateTime, timezone: string): ScheduleSpec {
  if (recurrence.family === 'every_n_days') {
    let first = atTime(now.startOf('day'), times[0]!);
    if (first <= now) first = first.plus({ days: 1 });
    return interval(recurrence.days * DAY_MS, first, timezone);
  }
  if (recurrence.family === 'interval') {
    const cron = intervalCron(recurrence.seconds);
    if (!cron)
      return interval(recurrence.seconds * 1000, now.plus({ seconds: recurrence.seconds }), timezone);
    return cronSpec(cron, now, timezone);
  }
  return cronSpec(clockCron(recurrence, times), now, timezone);
}

function interval(everyMs: number, first: DateTime, timezone: string): ScheduleSpec {
  return {
    type: 'interval',
    everyMs,
    firstRunAt: first.set({ millisecond: 0 }).toISO({ suppressMilliseconds: true })!,
    timezone,
  };
}

function cronSpec(cron: string, now: DateTime, timezone: string): ScheduleSpec {
  const next = new Cron(cron, { timezone }).nextRun(now.toJSDate());
  if (!next) throw new Error(`cron "${cron}" has no next run`);
  const nextRunAt = DateTime.fromJSDate(next, { zone: timezone }).toISO({ suppressMilliseconds: true })!;
  return { type: 'cron', cron, timezone, nextRunAt };
}

/** A cron for an interval of whole minutes that divides the hour or the day, else undefined (an interval). */
function intervalCron(seconds: number): string | undefined {
  if (seconds % 60 !== 0) return undefined;
  const minutes = seconds / 60;
  if (minutes === 1) return '* * * * *';
  if (minutes < 60 && 60 % minutes === 0) return `*/${minutes} * * * *`;
  if (minutes === 60) return '0 * * * *';
  if (minutes % 60 === 0 && minutes < 1440 && 24 % (minutes / 60) === 0) return `0 */${minutes / 60} * * *`;
  return undefined;
}

function clockCron(
  recurrence: Exclude<Recurrence, { family: 'interval' | 'every_n_days' }>,
  times: Time[],
): string {
  const minute = times[0]!.minute;
  const hours = times.map((time) => time.hour).join(',');
  const shift = times[0]!.nextDay ? 1 : 0;
  const days = (list: number[]) =>
    [...new Set(list.map((day) => (day + shift) % 7))].sort((a, b) => a - b).join(',');
  switch (recurrence.family) {
    case 'daily':
      return `${minute} ${hours} * * *`;
    case 'weekly':
      return `${minute} ${hours} * * ${days(recurrence.weekdays.length > 0 ? recurrence.weekdays : [1])}`;
    case 'weekdays':
      return `${minute} ${hours} * * ${shift ? '2-6' : '1-5'}`;
    case 'weekends':
      return `${minute} ${hours} * * ${days([0, 6])}`;
    case 'monthly': {
      if (recurrence.lastDay) return `${minute} ${hours} L * *`;
      const list = recurrence.days.length > 0 ? recurrence.days : [1];
      const shifted = [...new Set(list.map((day) => Math.min(31, day + shift)))].sort((a, b) => a - b);
      return `${minute} ${hours} ${shifted.join(',')} * *`;
    }
  }
}
