import { randomUUID } from 'node:crypto';
import { decideFire, UNFINISHED_JOB_STATES } from '@talon/autonomy';
import type { Guardrails, JobAction, JobLimits, JobPolicy, RoutineFire } from '@talon/contracts';
import type { Prisma, Routine as RoutineRow } from '@talon/persistence';
import type { JobStore } from './job-store.js';
import { toFireView } from './routine-view.js';

/** One fire to claim for a routine. */
export interface FireClaim {
  readonly slotAt: Date;
  /** The claim's identity: the slot instant for scheduled fires, `<source>:<key>` for event fires. */
  readonly slotKey: string;
  readonly source: string;
  readonly dedupKey?: string;
  readonly input?: unknown;
}

/** What claiming a routine's fires reads of it. */
export type FiringRoutine = Pick<
  RoutineRow,
  'id' | 'action' | 'policy' | 'limits' | 'guardrails' | 'lastFireAt'
>;

/** A routine's fires and its next slot (`undefined`: leave it; `null`: no more slots). */
export interface RoutineFires {
  readonly routine: FiringRoutine;
  readonly fires: readonly FireClaim[];
  readonly next?: Date | null;
}

/**
 * Claims fires and enqueues their jobs in the caller's transaction: each fire is a unique insert into
 * `routine_fire (routine_id, slot_key)`, so a slot another orchestrator claimed first conflicts and
 * fires nothing; the guardrails (max concurrent, cooldown, dedup window) decide whether a claimed
 * fire enqueues its job or is recorded as skipped with the reason. Returns the fires claimed here.
 */
export async function commitFires(
  tx: Prisma.TransactionClient,
  jobs: JobStore,
  owner: string,
  now: Date,
  batch: readonly RoutineFires[],
): Promise<RoutineFire[]> {
  const ids = batch.map((entry) => entry.routine.id);
  const unfinished = new Map<string, number>();
  if (ids.length > 0) {
    const counts = await tx.$queryRaw<Array<{ routine_id: string; n: number }>>`
      SELECT routine_id, count(*)::int AS n FROM job
      WHERE routine_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)
        AND status IN (SELECT jsonb_array_elements_text(${JSON.stringify(UNFINISHED_JOB_STATES)}::jsonb))
      GROUP BY routine_id`;
    for (const row of counts) unfinished.set(row.routine_id, row.n);
  }
  const fireRows: Array<Record<string, unknown>> = [];
  const newJobs: Array<Parameters<JobStore['enqueue']>[0][number]> = [];
  const updates: Array<{ id: string; next: string | null; set_next: boolean; last: string | null }> = [];
  for (const { routine, fires, next } of batch) {
    const guardrails = routine.guardrails as Guardrails;
    let running = unfinished.get(routine.id) ?? 0;
    let lastFireAt = routine.lastFireAt ?? undefined;
    for (const fire of fires) {
      const lastDuplicateAt =
        fire.dedupKey !== undefined && (guardrails.dedupWindowMs ?? 0) > 0
          ? await lastFireWithKey(tx, routine.id, fire.dedupKey)
          : undefined;
      const verdict = decideFire(guardrails, {
        now,
        unfinishedJobs: running,
        ...(lastFireAt ? { lastFireAt } : {}),
        ...(lastDuplicateAt ? { lastDuplicateAt } : {}),
      });
      const id = randomUUID();
      const jobId = verdict.fire ? randomUUID() : null;
      fireRows.push({
        id,
        routine_id: routine.id,
        slot_key: fire.slotKey,
        slot_at: fire.slotAt.toISOString(),
        source: fire.source,
        dedup_key: fire.dedupKey ?? null,
        outcome: verdict.fire ? 'enqueued' : 'skipped',
        reason: verdict.fire ? null : `${verdict.rule}: ${verdict.reason}`,
        job_id: jobId,
      });
      if (jobId !== null) {
        running++;
        lastFireAt = now;
        newJobs.push({
          id: jobId,
          action: routine.action as JobAction,
          ...(fire.input === undefined ? {} : { input: fire.input }),
          policy: routine.policy as JobPolicy,
          limits: routine.limits as JobLimits,
          routineId: routine.id,
          fireId: id,
        });
      }
    }
    updates.push({
      id: routine.id,
      next: next ? next.toISOString() : null,
      set_next: next !== undefined,
      last: lastFireAt && lastFireAt !== routine.lastFireAt ? lastFireAt.toISOString() : null,
    });
  }
  const claimed =
    fireRows.length === 0
      ? []
      : await tx.$queryRaw<
          Array<{
            id: string;
            routine_id: string;
            slot_at: Date;
            source: string;
            claimed_at: Date;
            job_id: string | null;
            outcome: string;
            reason: string | null;
          }>
        >`
      INSERT INTO routine_fire (id, routine_id, slot_key, slot_at, source, dedup_key, claimed_by, outcome, reason, job_id)
      SELECT r.id::uuid, r.routine_id::uuid, r.slot_key, r.slot_at::timestamptz, r.source, r.dedup_key, ${owner},
             r.outcome, r.reason, r.job_id::uuid
      FROM jsonb_to_recordset(${JSON.stringify(fireRows)}::jsonb) AS r(
        id text, routine_id text, slot_key text, slot_at text, source text, dedup_key text, outcome text,
        reason text, job_id text)
      ON CONFLICT (routine_id, slot_key) DO NOTHING
      RETURNING id, routine_id, slot_at, source, claimed_at, job_id, outcome, reason`;
  const claimedIds = new Set(claimed.map((row) => row.id));
  await jobs.enqueue(
    newJobs.filter((job) => claimedIds.has(job.fireId!)),
    tx,
  );
  if (updates.length > 0)
    await tx.$executeRaw`
      UPDATE routine AS t SET
        next_fire_at = CASE WHEN u.set_next THEN u.next::timestamptz ELSE t.next_fire_at END,
        last_fire_at = COALESCE(u.last::timestamptz, t.last_fire_at), updated_at = now()
      FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS u(id text, next text, set_next boolean, last text)
      WHERE t.id = u.id::uuid`;
  return claimed.map((row) =>
    toFireView({
      id: row.id,
      routineId: row.routine_id,
      slotAt: row.slot_at,
      source: row.source,
      claimedBy: owner,
      claimedAt: row.claimed_at,
      jobId: row.job_id,
      outcome: row.outcome,
      reason: row.reason,
      durationMs: null,
    }),
  );
}

async function lastFireWithKey(
  tx: Prisma.TransactionClient,
  routineId: string,
  dedupKey: string,
): Promise<Date | undefined> {
  const rows = await tx.$queryRaw<Array<{ claimed_at: Date }>>`
    SELECT claimed_at FROM routine_fire
    WHERE routine_id = ${routineId}::uuid AND dedup_key = ${dedupKey} AND outcome <> 'skipped'
    ORDER BY claimed_at DESC LIMIT 1`;
  return rows[0]?.claimed_at;
}
