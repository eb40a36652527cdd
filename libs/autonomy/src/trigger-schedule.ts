import { CronExpressionParser } from 'cron-parser';
import { MIN_INTERVAL_MS, type Trigger } from '@talon/contracts';
import { checkRegexSafety } from '@talon/safety';
import { InvalidTriggerError } from './errors/invalid-trigger-error.js';

/** The triggers that have slots in time; the others fire on events. */
export type ScheduledTrigger = Extract<Trigger, { kind: 'cron' | 'interval' | 'once' }>;

/** Default timezone of a cron trigger without one. */
export const DEFAULT_TIMEZONE = 'UTC';

const FIVE_FIELDS = ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const;
const SIX_FIELDS = ['second', ...FIVE_FIELDS] as const;

/** Whether the trigger has slots in time (cron, interval, once). */
export function isScheduled(trigger: Trigger): trigger is ScheduledTrigger {
  return trigger.kind === 'cron' || trigger.kind === 'interval' || trigger.kind === 'once';
}

/** Whether `zone` is an IANA timezone the runtime knows. */
export function isValidTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses a trigger that could never fire or could hurt: a cron expression with a bad field (named), an
 * unknown timezone, an interval under {@link MIN_INTERVAL_MS}, a `once` in the past, an event pattern
 * that is not a regex or can backtrack catastrophically. Throws {@link InvalidTriggerError}.
 */
export function validateTrigger(trigger: Trigger, now: Date = new Date()): void {
  switch (trigger.kind) {
    case 'cron':
      validateCron(trigger.expression, trigger.timezone ?? DEFAULT_TIMEZONE);
      return;
    case 'interval':
      if (!Number.isInteger(trigger.everyMs) || trigger.everyMs < MIN_INTERVAL_MS)
        throw new InvalidTriggerError(
          'trigger.everyMs',
          `an interval must be at least ${MIN_INTERVAL_MS} ms (got ${trigger.everyMs})`,
        );
      if (trigger.startAt !== undefined) instant(trigger.startAt, 'trigger.startAt');
      return;
    case 'once':
      if (instant(trigger.at, 'trigger.at').getTime() <= now.getTime())
        throw new InvalidTriggerError('trigger.at', `${trigger.at} is in the past; give a future instant`);
      return;
    case 'event':
      compileEventPattern(trigger.pattern, trigger.flags);
      return;
    default:
      return;
  }
}

/** Compiles an event trigger's pattern, refusing catastrophic shapes (the project's ReDoS guard). */
export function compileEventPattern(pattern: string, flags = ''): RegExp {
  const verdict = checkRegexSafety(pattern, { flags: flags.replace(/[gy]/g, '') });
  if (!verdict.safe) throw new InvalidTriggerError('trigger.pattern', `${verdict.message}; simplify it`);
  try {
    return new RegExp(pattern, flags.replace(/[gy]/g, ''));
  } catch (error) {
    throw new InvalidTriggerError('trigger.pattern', `not a regular expression: ${(error as Error).message}`);
  }
}

function validateCron(expression: string, timezone: string): void {
  if (!isValidTimezone(timezone))
    throw new InvalidTriggerError(
      'trigger.timezone',
      `"${timezone}" is not an IANA timezone (e.g. Asia/Shanghai)`,
    );
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6)
    throw new InvalidTriggerError(
      'trigger.expression',
      `a cron expression has 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first); got ${fields.length}`,
    );
  const names = fields.length === 6 ? SIX_FIELDS : FIVE_FIELDS;
  // Parse each field alone (the others as `*`), so the error names the field that is wrong.
  for (const [index, value] of fields.entries()) {
    const probe = fields.map((field, at) => (at === index ? field : '*')).join(' ');
    try {
      CronExpressionParser.parse(probe, { tz: timezone });
    } catch (error) {
      throw new InvalidTriggerError(
        `trigger.expression.${names[index]}`,
        `"${value}" is not valid: ${(error as Error).message}`,
        { value },
      );
    }
  }
  try {
    CronExpressionParser.parse(expression, { tz: timezone }).next();
  } catch (error) {
    throw new InvalidTriggerError('trigger.expression', `never fires: ${(error as Error).message}`);
  }
}

function instant(value: string, field: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new InvalidTriggerError(field, `"${value}" is not an ISO 8601 instant`);
  return date;
}

/**
 * The first slot strictly after `after`, or `undefined` when there is none (a `once` already past).
 * `anchor` is the creation of the routine: an interval without `startAt` fires one interval after it. Cron slots are
 * computed in the trigger's timezone by cron-parser: a wall time skipped by a spring-forward change
 * fires at the same minute of the next hour (02:30 → 03:30 Europe/Berlin), a wall time repeated by a
 * fall-back change fires once (its first occurrence).
 */
export function nextSlot(trigger: ScheduledTrigger, after: Date, anchor: Date): Date | undefined {
  return slotsAfter(trigger, after, anchor).next().value;
}

/**
 * The slots strictly after `after`, in order (as {@link nextSlot} gives them one by one). A cron expression is
 * parsed once for all of them: a parse costs about 200 µs, a step 10–50.
 */
export function* slotsAfter(
  trigger: ScheduledTrigger,
  after: Date,
  anchor: Date,
): Generator<Date, undefined> {
  switch (trigger.kind) {
    case 'cron': {
      const iterator = parseCron(trigger, after);
      for (;;) yield iterator.next().toDate();
    }
    case 'interval': {
      const start = intervalStart(trigger, anchor);
      const t = after.getTime();
      let slot =
        t < start ? start : start + (Math.floor((t - start) / trigger.everyMs) + 1) * trigger.everyMs;
      for (;;) {
        yield new Date(slot);
        slot += trigger.everyMs;
      }
    }
    case 'once': {
      const at = new Date(trigger.at);
      if (at.getTime() > after.getTime()) yield at;
      return;
    }
  }
}

/**
 * The slots strictly before `before`, latest first; an interval has none before its first slot. A cron walked
 * back misses the slot a spring-forward change moved to the next hour (cron-parser walks back over wall
 * times): find where to start with it, then walk forward with {@link slotsAfter}.
 */
export function* slotsBefore(
  trigger: ScheduledTrigger,
  before: Date,
  anchor: Date,
): Generator<Date, undefined> {
  switch (trigger.kind) {
    case 'cron': {
      const iterator = parseCron(trigger, before);
      for (;;) yield iterator.prev().toDate();
    }
    case 'interval': {
      const start = intervalStart(trigger, anchor);
      const t = before.getTime();
      if (t <= start) return;
      for (
        let slot = start + (Math.ceil((t - start) / trigger.everyMs) - 1) * trigger.everyMs;
        slot >= start;
      ) {
        yield new Date(slot);
        slot -= trigger.everyMs;
      }
      return;
    }
    case 'once': {
      const at = new Date(trigger.at);
      if (at.getTime() < before.getTime()) yield at;
      return;
    }
  }
}

/** An interval's first slot: its `startAt`, else one interval after the routine was created. */
function intervalStart(trigger: Extract<ScheduledTrigger, { kind: 'interval' }>, anchor: Date): number {
  return trigger.startAt === undefined
    ? anchor.getTime() + trigger.everyMs
    : new Date(trigger.startAt).getTime();
}

function parseCron(trigger: Extract<ScheduledTrigger, { kind: 'cron' }>, currentDate: Date) {
  return CronExpressionParser.parse(trigger.expression, {
    currentDate,
    tz: trigger.timezone ?? DEFAULT_TIMEZONE,
  });
}

/** The first slot at or after `from` (the first fire of a new or resumed routine). */
export function firstSlot(trigger: ScheduledTrigger, from: Date, anchor: Date): Date | undefined {
  return nextSlot(trigger, new Date(from.getTime() - 1), anchor);
}
