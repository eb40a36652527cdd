export { InvalidTriggerError } from './errors/invalid-trigger-error.js';
export {
  DEFAULT_TIMEZONE,
  compileEventPattern,
  firstSlot,
  isScheduled,
  isValidTimezone,
  nextSlot,
  validateTrigger,
  type ScheduledTrigger,
} from './trigger-schedule.js';
export {
  DEFAULT_CATCH_UP_MAX,
  DEFAULT_MISFIRE_GRACE_MS,
  planFires,
  type FirePlan,
  type PlannedFire,
} from './catch-up.js';
export {
  DEFAULT_MAX_CONCURRENT,
  DEFAULT_MAX_CONSECUTIVE_FAILURES,
  afterJobOutcome,
  decideFire,
  type FireContext,
  type GuardrailVerdict,
} from './guardrail-decision.js';
export {
  CANCELLABLE_JOB_STATES,
  UNFINISHED_JOB_STATES,
  afterLostLease,
  canTransition,
  isFinalJobState,
} from './job-state-machine.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_MS,
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  type WebhookVerification,
} from './webhook-signature.js';
export {
  DEFAULT_JOB_MAX_ITERATIONS,
  DEFAULT_JOB_MAX_TOOL_CALLS,
  DEFAULT_JOB_MAX_WALL_TIME_MS,
  resolveJobLimits,
  type ResolvedJobLimits,
} from './job-limits.js';
export {
  diffSkillRoutines,
  skillOwner,
  skillRoutineId,
  skillRoutines,
  type SkillRoutine,
} from './skill-routines.js';
export { derivedRoutineId, diffOwnedRoutines, type OwnedRoutine } from './owned-routines.js';
export { handOwner, handRoutines } from './hand-routines.js';
