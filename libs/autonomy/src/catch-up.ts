import type { Guardrails } from '@talon/contracts';
import { nextSlot, slotsAfter, slotsBefore, type ScheduledTrigger } from './trigger-schedule.js';

/** Default bound of `catchUp: "all"`. */
export const DEFAULT_CATCH_UP_MAX = 10;
/** Default lateness after which a slot counts as missed. */
export const DEFAULT_MISFIRE_GRACE_MS = 5_000;
/**
 * Missed cron slots counted one by one at most; past it `skipped` is a lower bound. A cron's slots have no
 * closed form, and a plan runs inside the scheduler's transaction: a per-second cron down for a month has
 * 2.6 million slots (an interval's are counted exactly by arithmetic).
 */
export const MISSED_COUNT_LIMIT = 1_000;
/**
 * Slots fired on time by one plan at most: a guard, as many as a valid routine can have (a per-second
 * schedule within the longest grace, an hour, both ends included).
 */
export const ON_TIME_LIMIT = 3_601;

/** One slot to fire now. */
export interface PlannedFire {
  readonly slotAt: Date;
  /** `schedule`: on time (within the grace); `catch_up`: missed during downtime, fired by the policy. */
  readonly source: 'schedule' | 'catch_up';
}

/** What the scheduler does with a due routine. */
export interface FirePlan {
  readonly fires: readonly PlannedFire[];
  /** Missed slots that are not fired (the policy skipped them or the bound cut them). */
  readonly skipped: number;
  /** Whether `skipped` is exact; a cron's missed slots beyond {@link MISSED_COUNT_LIMIT} are not counted. */
  readonly skippedExact: boolean;
  /** The routine's next slot after this plan, `undefined` when it has none left (a fired `once`). */
  readonly next: Date | undefined;
}

/**
 * Plans the fires of a routine whose next slot (`due`) is at or before `now`. A slot within
 * `misfireGraceMs` of now fires as scheduled; older slots were missed while no orchestrator ran and
 * follow the catch-up policy: `skip` (default) fires none, `once` fires the latest missed one, `all`
 * fires each up to `catchUpMax` (the latest ones). The next slot is always after `now`, so the
 * routine never fires the same slot twice and never loops on the past. The work is bounded whatever the
 * outage: the latest missed slots are found walking back from the grace's start, not forward from `due`.
 */
export function planFires(
  trigger: ScheduledTrigger,
  due: Date,
  now: Date,
  anchor: Date,
  guardrails: Guardrails = {},
): FirePlan {
  if (due.getTime() > now.getTime()) return { fires: [], skipped: 0, skippedExact: true, next: due };
  const grace = guardrails.misfireGraceMs ?? DEFAULT_MISFIRE_GRACE_MS;
  const policy = guardrails.catchUp ?? 'skip';
  const keep = policy === 'all' ? (guardrails.catchUpMax ?? DEFAULT_CATCH_UP_MAX) : policy === 'once' ? 1 : 0;
  // A slot before the grace's start was missed.
  const graceStart = now.getTime() - grace;
  const missed = countMissed(trigger, due, graceStart, anchor);
  const caughtUp = missed.count > 0 ? latestMissed(trigger, due, graceStart, anchor, keep) : [];
  // The schedule is the walk from `due`, each slot the next after the one before (a wall time a fall-back
  // change repeats fires once). After an outage the walk resumes after a slot found walking back from the
  // grace's start: chained forward from any slot, it meets the schedule's slots again.
  const resume = due.getTime() < graceStart ? slotStepsBack(trigger, graceStart, due, anchor, 1) : undefined;
  const onTime: Date[] = due.getTime() >= graceStart ? [due] : [];
  let next: Date | undefined;
  for (const slot of slotsAfter(trigger, resume ?? due, anchor)) {
    if (slot.getTime() > now.getTime() || onTime.length === ON_TIME_LIMIT) {
      next = slot.getTime() > now.getTime() ? slot : nextSlot(trigger, now, anchor);
      break;
    }
    if (slot.getTime() >= graceStart) onTime.push(slot);
  }
  return {
    fires: [
      ...caughtUp.map((slotAt) => ({ slotAt, source: 'catch_up' as const })),
      ...onTime.map((slotAt) => ({ slotAt, source: 'schedule' as const })),
    ],
    skipped: missed.count - caughtUp.length,
    skippedExact: missed.exact,
    next,
  };
}

/** How many of the routine's slots fall before `graceStart` (`due` included). */
function countMissed(
  trigger: ScheduledTrigger,
  due: Date,
  graceStart: number,
  anchor: Date,
): { count: number; exact: boolean } {
  if (due.getTime() >= graceStart) return { count: 0, exact: true };
  if (trigger.kind === 'interval') {
    const first = nextSlot(trigger, due, anchor)!.getTime();
    return { count: 1 + Math.max(0, Math.ceil((graceStart - first) / trigger.everyMs)), exact: true };
  }
  let count = 1;
  for (const slot of slotsAfter(trigger, due, anchor)) {
    if (slot.getTime() >= graceStart) return { count, exact: true };
    if (count === MISSED_COUNT_LIMIT) return { count, exact: false };
    count++;
  }
  return { count, exact: true };
}

/**
 * The latest `keep` of the routine's slots before `graceStart`, oldest first: found walking back, then
 * collected walking forward after the slot reached (walking back, cron-parser skips a wall time that a
 * spring-forward change skipped, which the schedule fires an hour later, and meets a repeated one twice).
 */
function latestMissed(
  trigger: ScheduledTrigger,
  due: Date,
  graceStart: number,
  anchor: Date,
  keep: number,
): Date[] {
  if (keep === 0) return [];
  for (let back = keep + 1; ; back *= 2) {
    const start = slotStepsBack(trigger, graceStart, due, anchor, back);
    const latest = start === undefined ? [due] : [];
    for (const slot of slotsAfter(trigger, start ?? due, anchor)) {
      if (slot.getTime() >= graceStart) break;
      latest.push(slot);
      if (latest.length > keep) latest.shift();
    }
    if (latest.length === keep || start === undefined) return latest;
  }
}

/** The slot `steps` slots before `graceStart`, `undefined` when that is at or before `due`. */
function slotStepsBack(
  trigger: ScheduledTrigger,
  graceStart: number,
  due: Date,
  anchor: Date,
  steps: number,
): Date | undefined {
  let taken = 0;
  for (const slot of slotsBefore(trigger, new Date(graceStart), anchor)) {
    if (slot.getTime() <= due.getTime()) return undefined;
    if (++taken === steps) return slot;
  }
  return undefined;
}
