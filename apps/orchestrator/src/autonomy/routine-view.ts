import type {
  Guardrails,
  JobAction,
  JobLimits,
  JobPolicy,
  Routine,
  RoutineFire,
  Trigger,
} from '@talon/contracts';
import type { Routine as RoutineRow } from '@talon/persistence';

/** A routine_fire row as stored. */
export interface FireRow {
  id: string;
  routineId: string;
  slotAt: Date;
  source: string;
  claimedBy: string;
  claimedAt: Date;
  jobId: string | null;
  outcome: string;
  reason: string | null;
  durationMs: number | null;
}

/** A routine's state in words: paused by a person, disabled by its guardrails, done (a fired `once`). */
export function routineState(row: RoutineRow): Routine['state'] {
  if (row.disabledReason !== null) return 'disabled';
  if (row.paused) return 'paused';
  const kind = row.triggerKind;
  if ((kind === 'cron' || kind === 'interval' || kind === 'once') && row.nextFireAt === null) return 'done';
  return 'active';
}

/** A routine row as the API shows it (never the webhook secret). */
export function toRoutineView(row: RoutineRow): Routine {
  return {
    id: row.id,
    name: row.name,
    owner: row.owner,
    trigger: row.trigger as unknown as Trigger,
    action: row.action as unknown as JobAction,
    policy: row.policy as unknown as JobPolicy,
    limits: row.limits as unknown as JobLimits,
    guardrails: row.guardrails as unknown as Guardrails,
    state: routineState(row),
    ...(row.disabledReason === null ? {} : { disabledReason: row.disabledReason }),
    consecutiveFailures: row.consecutiveFailures,
    ...(row.nextFireAt ? { nextFireAt: row.nextFireAt.toISOString() } : {}),
    ...(row.lastFireAt ? { lastFireAt: row.lastFireAt.toISOString() } : {}),
    ...(row.triggerKind === 'webhook' ? { webhookPath: `/v1/hooks/${row.id}` } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A fire row as the API shows it. */
export function toFireView(row: FireRow): RoutineFire {
  return {
    id: row.id,
    routineId: row.routineId,
    slotAt: row.slotAt.toISOString(),
    source: row.source,
    claimedBy: row.claimedBy,
    claimedAt: row.claimedAt.toISOString(),
    ...(row.jobId ? { jobId: row.jobId } : {}),
    outcome: row.outcome as RoutineFire['outcome'],
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.durationMs === null ? {} : { durationMs: row.durationMs }),
  };
}
