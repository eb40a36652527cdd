import type { Job, JobAction, JobLimits, JobPolicy, JobState } from '@talon/contracts';
import type { Job as JobRow } from '@talon/persistence';

/** A job row as the API shows it. */
export function toJobView(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    state: row.status as JobState,
    action: row.payload as unknown as JobAction,
    ...(row.input === null ? {} : { input: row.input }),
    policy: row.policy as unknown as JobPolicy,
    limits: row.limits as unknown as JobLimits,
    ...(row.sessionId ? { sessionId: row.sessionId } : {}),
    ...(row.routineId ? { routineId: row.routineId } : {}),
    attempt: row.attempt,
    ...(row.leaseOwner ? { leaseOwner: row.leaseOwner } : {}),
    ...(row.leaseExpiresAt ? { leaseExpiresAt: row.leaseExpiresAt.toISOString() } : {}),
    ...(row.result === null ? {} : { result: row.result }),
    ...(row.error === null ? {} : { error: { code: row.errorCode ?? 'INTERNAL', message: row.error } }),
    createdAt: row.createdAt.toISOString(),
    ...(row.startedAt ? { startedAt: row.startedAt.toISOString() } : {}),
    ...(row.finishedAt ? { finishedAt: row.finishedAt.toISOString() } : {}),
    updatedAt: row.updatedAt.toISOString(),
  };
}
