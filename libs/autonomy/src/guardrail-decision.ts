import type { Guardrails } from '@talon/contracts';

/** Default cap on unfinished jobs of one routine. */
export const DEFAULT_MAX_CONCURRENT = 1;
/** Default consecutive failures after which a routine disables itself. */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 5;

/** What the guardrails need to know about one fire. */
export interface FireContext {
  readonly now: Date;
  /** Jobs of the routine not yet finished (pending, running, waiting for approval, stuck). */
  readonly unfinishedJobs: number;
  /** When the routine last enqueued a job. */
  readonly lastFireAt?: Date;
  /** When a fire with the same dedup key last enqueued a job (event, system-event and webhook fires). */
  readonly lastDuplicateAt?: Date;
}

/** Fire, or skip with a reason people can read in `routines.history`. */
export type GuardrailVerdict =
  | { readonly fire: true }
  | { readonly fire: false; readonly rule: 'max_concurrent' | 'cooldown' | 'dedup'; readonly reason: string };

/** Decides whether one fire may enqueue its job. Checked in order: max concurrent, cooldown, dedup window. */
export function decideFire(guardrails: Guardrails, context: FireContext): GuardrailVerdict {
  const maxConcurrent = guardrails.maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
  if (context.unfinishedJobs >= maxConcurrent)
    return {
      fire: false,
      rule: 'max_concurrent',
      reason: `${context.unfinishedJobs} job(s) of this routine still unfinished (maxConcurrent ${maxConcurrent})`,
    };
  const cooldown = guardrails.cooldownMs ?? 0;
  if (cooldown > 0 && context.lastFireAt !== undefined) {
    const since = context.now.getTime() - context.lastFireAt.getTime();
    if (since < cooldown)
      return { fire: false, rule: 'cooldown', reason: `last fire ${since} ms ago (cooldownMs ${cooldown})` };
  }
  const window = guardrails.dedupWindowMs ?? 0;
  if (window > 0 && context.lastDuplicateAt !== undefined) {
    const since = context.now.getTime() - context.lastDuplicateAt.getTime();
    if (since < window)
      return {
        fire: false,
        rule: 'dedup',
        reason: `same dedup key fired ${since} ms ago (dedupWindowMs ${window})`,
      };
  }
  return { fire: true };
}

/** The routine's failure count after one of its jobs finished, and whether it must disable itself. */
export function afterJobOutcome(
  guardrails: Guardrails,
  consecutiveFailures: number,
  succeeded: boolean,
  failure?: string,
): { consecutiveFailures: number; disabledReason?: string } {
  if (succeeded) return { consecutiveFailures: 0 };
  const count = consecutiveFailures + 1;
  const max = guardrails.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES;
  if (count < max) return { consecutiveFailures: count };
  return {
    consecutiveFailures: count,
    disabledReason: `disabled after ${count} consecutive failed jobs (maxConsecutiveFailures ${max})${failure ? `; last: ${failure}` : ''}; fix the cause and resume it`,
  };
}
