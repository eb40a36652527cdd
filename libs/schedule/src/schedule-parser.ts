import type { ScheduleParseResult } from '@talon/contracts';
import { DateTime, IANAZone } from 'luxon';
import { DATE_RULES } from './date-rules.js';
import { RECURRENCE_RULES } from './recurrence-rules.js';
import { buildScheduleResult } from './schedule-builder.js';
import { emptyFrame, runScheduleRules, type ScheduleRule } from './schedule-frame.js';
import { ScheduleInputError } from './schedule-input-error.js';
import { hasScheduleIntent } from './schedule-intent.js';
import { scheduleQuestion } from './schedule-questions.js';
import { extractTask } from './schedule-task.js';
import { detectLanguage, MAX_SCHEDULE_TEXT_CHARS, normalizeScheduleText } from './schedule-text.js';
import { PERIOD_RULES, TIME_RULES } from './time-of-day.js';

/** Options of {@link parseSchedule}. */
export interface ScheduleParseOptions {
  /** IANA timezone the schedule is meant in. Default `UTC`; a timezone named in the text wins. */
  timezone?: string;
  /** The instant to compute from. Default the current time. */
  now?: Date | string;
  /** Ids of known hands, so that "每天8点运行 digest" targets the hand `digest`. Default none. */
  hands?: readonly string[];
}

/** Default timezone when the caller names none. */
export const DEFAULT_SCHEDULE_TIMEZONE = 'UTC';

// Order matters: each rule consumes its words before the next one looks. Named timezones and relative
// offsets first, then repeating rules, one-shot days, clock times, and last the bare parts of the day.
const RULES: readonly ScheduleRule[] = [
  ...DATE_RULES.slice(0, 3),
  ...RECURRENCE_RULES,
  ...DATE_RULES.slice(3),
  ...TIME_RULES,
  ...PERIOD_RULES,
];

/**
 * Reads a schedule from a Chinese or English message: `exact` (a cron, interval or one-shot instant with a
 * confidence of at least 0.8), `ambiguous` (candidates and the question to ask), `unclear` (a schedule was
 * meant but cannot be read: the clarifying question) or `none`. Every answer carries the task text with
 * the schedule words removed. Linear in the text, which is read up to {@link MAX_SCHEDULE_TEXT_CHARS}.
 *
 * @throws ScheduleInputError for an unknown timezone or an unreadable `now`.
 */
export function parseSchedule(text: string, options: ScheduleParseOptions = {}): ScheduleParseResult {
  const timezone = options.timezone ?? DEFAULT_SCHEDULE_TIMEZONE;
  if (!isKnownZone(timezone)) throw new ScheduleInputError('timezone', timezone);
  const now = readNow(options.now);
  const language = detectLanguage(text.slice(0, MAX_SCHEDULE_TEXT_CHARS));
  if (text.length > MAX_SCHEDULE_TEXT_CHARS) {
    if (!hasScheduleIntent(text)) return { kind: 'none', task: '', language };
    return {
      kind: 'unclear',
      problem: 'too_long',
      question: scheduleQuestion('too_long', { target: 'agent' }, language),
      task: '',
      target: 'agent',
      language,
      timezone,
    };
  }
  const normalized = normalizeScheduleText(text).replace(/\s+/g, ' ').trim();
  const frame = emptyFrame();
  const rest = runScheduleRules(normalized, RULES, frame);
  const task = extractTask(rest, options.hands);
  const found =
    frame.recurrences.length +
    frame.dates.length +
    frame.times.length +
    frame.periods.length +
    frame.relatives.length +
    frame.problems.length;
  if (found === 0) {
    if (task.target !== 'reminder') return { kind: 'none', task: text.trim(), language };
    return {
      kind: 'unclear',
      problem: 'unparsed',
      question: scheduleQuestion('unparsed', { target: task.target }, language),
      task: task.task,
      target: task.target,
      language,
      timezone,
    };
  }
  // A plan told about oneself, or a day or part of the day mentioned in passing ("今天天气怎么样") with
  // no time and no request: nothing to schedule.
  const inPassing =
    !task.asked &&
    frame.recurrences.length === 0 &&
    frame.times.length === 0 &&
    frame.relatives.length === 0 &&
    frame.problems.length === 0;
  if (task.statement || inPassing) return { kind: 'none', task: text.trim(), language };
  return buildScheduleResult({ frame, task, language, timezone: frame.timezone ?? timezone, now });
}

// Checking a zone builds an Intl formatter (~0.1 ms); remember the ones seen, up to a bound.
const KNOWN_ZONES = new Set<string>();
const MAX_KNOWN_ZONES = 512;

function isKnownZone(zone: string): boolean {
  if (KNOWN_ZONES.has(zone)) return true;
  if (!IANAZone.isValidZone(zone)) return false;
  if (KNOWN_ZONES.size < MAX_KNOWN_ZONES) KNOWN_ZONES.add(zone);
  return true;
}

function readNow(now: Date | string | undefined): DateTime {
  if (now === undefined) return DateTime.now();
  const parsed =
    typeof now === 'string' ? DateTime.fromISO(now, { setZone: true }) : DateTime.fromJSDate(now);
  if (!parsed.isValid) throw new ScheduleInputError('now', String(now));
  return parsed;
}
