import type { Guardrails } from '@talon/contracts';
import { nextSlot, type ScheduledTrigger } from './trigger-schedule.js';

/** Default bound of `catchUp: "all"`. */
export const DEFAULT_CATCH_UP_MAX = 10;
/** Default lateness after which a slot counts as missed. */
export const DEFAULT_MISFIRE_GRACE_MS = 5_000;
/** Slots examined in one plan at most (a years-long outage of a per-second cron stays bounded). */
const SCAN_LIMIT = 100_000;

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
  /** The routine's next slot after this plan, `undefined` when it has none left (a fired `once`). */
  readonly next: Date | undefined;
}

/**
 * Plans the fires of a routine whose next slot (`due`) is at or before `now`. A slot within
 * `misfireGraceMs` of now fires as scheduled; older slots were missed while no orchestrator ran and
 * follow the catch-up policy: `skip` (default) fires none, `once` fires the latest missed one, `all`
 * fires each up to `catchUpMax` (the latest ones). The next slot is always after `now`, so the
 * routine never fires the same slot twice and never loops on the past.
 */
export function planFires(
  trigger: ScheduledTrigger,
  due: Date,
  now: Date,
  anchor: Date,
  guardrails: Guardrails = {},
): FirePlan {
  const grace = guardrails.misfireGraceMs ?? DEFAULT_MISFIRE_GRACE_MS;
  const policy = guardrails.catchUp ?? 'skip';
  const bound = guardrails.catchUpMax ?? DEFAULT_CATCH_UP_MAX;
  const onTime: Date[] = [];
  const missed: Date[] = [];
  let missedCount = 0;
  let slot: Date | undefined = due;
  let scanned = 0;
  while (slot !== undefined && slot.getTime() <= now.getTime() && scanned < SCAN_LIMIT) {
    if (now.getTime() - slot.getTime() <= grace) onTime.push(slot);
    else {
      missedCount++;
      missed.push(slot);
      if (missed.length > bound) missed.shift();
    }
    slot = nextSlot(trigger, slot, anchor);
    scanned++;
  }
  // A scan cut short leaves `slot` in the past: jump to the first slot after now.
  if (slot !== undefined && slot.getTime() <= now.getTime()) slot = nextSlot(trigger, now, anchor);
  const caughtUp = policy === 'all' ? missed : policy === 'once' ? missed.slice(-1) : [];
  return {
    fires: [
      ...caughtUp.map((slotAt) => ({ slotAt, source: 'catch_up' as const })),
      ...onTime.map((slotAt) => ({ slotAt, source: 'schedule' as const })),
    ],
    skipped: missedCount - caughtUp.length,
    next: slot,
  };
}
