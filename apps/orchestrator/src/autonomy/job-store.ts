import { randomUUID } from 'node:crypto';
import type { JobAction, JobEvent, JobLimits, JobPolicy, JobState } from '@talon/contracts';
import { Prisma, type Job as JobRow, type PrismaClient } from '@talon/persistence';

/** A job to enqueue. */
export interface NewJob {
  id?: string;
  action: JobAction;
  input?: unknown;
  policy: JobPolicy;
  limits: JobLimits;
  routineId?: string;
  fireId?: string;
}

/** A job whose lease expired under another orchestrator, locked for this one to decide on. */
export interface ExpiredJob {
  readonly id: string;
  readonly status: JobState;
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly leaseOwner: string | null;
}

/** How a job ended. */
export interface JobEnd {
  readonly state: JobState;
  readonly result?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
}

/** An event of a job to store. */
export interface NewJobEvent {
  readonly jobId: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** A job to end by {@link JobStore.storeEvents}, with its final event. */
export interface OwnedFinish {
  readonly id: string;
  readonly outcome: JobEnd;
  readonly finalEvent: { readonly type: string; readonly data: Record<string, unknown> };
}

/** A job ended by {@link JobStore.storeEvents}: its routine (null without one) and its stored final event. */
export interface FinishedJob {
  readonly routineId: string | null;
  readonly event: JobEvent;
}

/** A job taken by {@link JobStore.claim}. */
export interface ClaimedJob {
  readonly job: JobRow;
  /** For a routine's job on its first attempt: its fire's source and the seconds from slot to start. */
  readonly fireLag?: { readonly source: string; readonly seconds: number };
}

/** The fire of a claimed job, joined in by the claim. */
interface FireLagColumns {
  fire_source: string | null;
  fire_lag_seconds: number | null;
}

type Db = PrismaClient | Prisma.TransactionClient;

/** A `job` row as raw SQL returns it (column names). */
interface ClaimedRow {
  id: string;
  kind: string;
  status: string;
  payload: Prisma.JsonValue;
  input: Prisma.JsonValue | null;
  policy: Prisma.JsonValue;
  limits: Prisma.JsonValue;
  session_id: string | null;
  routine_id: string | null;
  fire_id: string | null;
  attempt: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  cancel_requested: boolean;
  result: Prisma.JsonValue | null;
  error: string | null;
  error_code: string | null;
  run_after: Date;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function fromClaimedRow(row: ClaimedRow): JobRow {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    payload: row.payload,
    input: row.input,
    policy: row.policy,
    limits: row.limits,
    sessionId: row.session_id,
    routineId: row.routine_id,
    fireId: row.fire_id,
    attempt: row.attempt,
    maxAttempts: row.max_attempts,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    cancelRequested: row.cancel_requested,
    result: row.result,
    error: row.error,
    errorCode: row.error_code,
    runAfter: row.run_after,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The durable job queue in PostgreSQL (or PGlite). Claims use `FOR UPDATE SKIP LOCKED`, so concurrent
 * orchestrators never take the same job; the claimant holds a lease (`lease_owner`,
 * `lease_expires_at`, database clock) it renews while the job runs. Every write of a running job is
 * conditioned on still holding the lease, so an owner that was only slow and lost it writes nothing.
 */
export class JobStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Inserts pending jobs (in the caller's transaction when given). */
  async enqueue(jobs: readonly NewJob[], db: Db = this.prisma): Promise<string[]> {
    if (jobs.length === 0) return [];
    const rows = jobs.map((job) => ({
      id: job.id ?? randomUUID(),
      kind: job.action.kind,
      payload: job.action,
      input: job.input ?? null,
      policy: job.policy,
      limits: job.limits,
      routine_id: job.routineId ?? null,
      fire_id: job.fireId ?? null,
      max_attempts: job.policy.maxAttempts ?? 1,
    }));
    await db.$executeRaw`
      INSERT INTO job (id, kind, status, payload, input, policy, limits, routine_id, fire_id, max_attempts, updated_at)
      SELECT r.id::uuid, r.kind, 'pending', r.payload, r.input, r.policy, r.limits, r.routine_id::uuid,
             r.fire_id::uuid, r.max_attempts, now()
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
        id text, kind text, payload jsonb, input jsonb, policy jsonb, limits jsonb,
        routine_id text, fire_id text, max_attempts int)`;
    return rows.map((row) => row.id);
  }

  /**
   * Takes up to `limit` pending jobs for `owner`, oldest first, with a lease of `leaseMs`. A routine's job
   * on its first attempt comes with the lag from its fire's slot to now (both on the database clock).
   */
  async claim(owner: string, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    if (limit <= 0) return [];
    // One round trip: the claimed rows come back from the UPDATE itself, each with its fire's slot.
    const rows = await this.prisma.$queryRaw<Array<ClaimedRow & FireLagColumns>>`
      UPDATE job SET status = 'running', lease_owner = ${owner},
        lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}::float8),
        attempt = attempt + 1, started_at = now(), updated_at = now()
      WHERE id IN (
        SELECT id FROM job WHERE status = 'pending' AND run_after <= now()
        ORDER BY run_after LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING *,
        (SELECT fire.source FROM routine_fire AS fire WHERE fire.id = job.fire_id) AS fire_source,
        (SELECT EXTRACT(EPOCH FROM (now() - fire.slot_at))::float8 FROM routine_fire AS fire
          WHERE fire.id = job.fire_id) AS fire_lag_seconds`;
    return rows.map((row) => ({
      job: fromClaimedRow(row),
      ...(row.fire_source !== null && row.fire_lag_seconds !== null && row.attempt === 1
        ? { fireLag: { source: row.fire_source, seconds: Math.max(0, row.fire_lag_seconds) } }
        : {}),
    }));
  }

  /**
   * Extends the leases `owner` holds; returns which it still holds and which were asked to cancel.
   * A job missing from `held` was taken over: its local run must stop writing.
   */
  async renew(
    owner: string,
    ids: readonly string[],
    leaseMs: number,
  ): Promise<{ held: Set<string>; cancelRequested: Set<string> }> {
    if (ids.length === 0) return { held: new Set(), cancelRequested: new Set() };
    const rows = await this.prisma.$queryRaw<Array<{ id: string; cancel_requested: boolean }>>`
      UPDATE job SET lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}::float8)
      WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)
        AND lease_owner = ${owner} AND status IN ('running', 'waiting_approval', 'stuck')
      RETURNING id, cancel_requested`;
    return {
      held: new Set(rows.map((row) => row.id)),
      cancelRequested: new Set(rows.filter((row) => row.cancel_requested).map((row) => row.id)),
    };
  }

  /**
   * Runs `decide` on jobs whose lease expired (their orchestrator died or lost the database), each
   * locked so only one orchestrator decides. `decide` returns the lease-taking update to apply.
   */
  async withExpired(limit: number, decide: (job: ExpiredJob, tx: Prisma.TransactionClient) => Promise<void>) {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<
        Array<{
          id: string;
          status: JobState;
          attempt: number;
          max_attempts: number;
          lease_owner: string | null;
        }>
      >`
        SELECT id, status, attempt, max_attempts, lease_owner FROM job
        WHERE status IN ('running', 'waiting_approval', 'stuck') AND lease_expires_at < now()
        ORDER BY lease_expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
      for (const row of rows)
        await decide(
          {
            id: row.id,
            status: row.status,
            attempt: row.attempt,
            maxAttempts: row.max_attempts,
            leaseOwner: row.lease_owner,
          },
          tx,
        );
      return rows.length;
    });
  }

  /** Sets the state of a job `owner` holds; false when the lease is gone (nothing written). */
  async setState(id: string, owner: string, state: JobState, db: Db = this.prisma): Promise<boolean> {
    const count = await db.$executeRaw`
      UPDATE job SET status = ${state}, updated_at = now() WHERE id = ${id}::uuid AND lease_owner = ${owner}`;
    return count > 0;
  }

  /** Takes the lease of an expired job for `owner` (used by takeovers inside `withExpired`). */
  async takeLease(id: string, owner: string, leaseMs: number, tx: Prisma.TransactionClient): Promise<void> {
    await tx.$executeRaw`
      UPDATE job SET lease_owner = ${owner}, updated_at = now(),
        lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}::float8)
      WHERE id = ${id}::uuid`;
  }

  /** Puts a job back in the queue for another attempt (its lease was lost). */
  async requeue(id: string, tx: Db = this.prisma): Promise<void> {
    await tx.$executeRaw`
      UPDATE job SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, session_id = NULL,
        updated_at = now(), run_after = now() WHERE id = ${id}::uuid`;
  }

  /**
   * Ends a job: final state, result or error, lease released. With `owner`, only while holding the
   * lease (false when it was lost); without, unconditionally (takeovers, cancels of pending jobs).
   */
  async finish(
    id: string,
    owner: string | undefined,
    outcome: { state: JobState; result?: unknown; error?: { code: string; message: string } },
    db: Db = this.prisma,
  ): Promise<boolean> {
    const result = outcome.result === undefined ? null : JSON.stringify(outcome.result);
    const condition = owner === undefined ? Prisma.sql`TRUE` : Prisma.sql`lease_owner = ${owner}`;
    const count = await db.$executeRaw`
      UPDATE job SET status = ${outcome.state}, result = ${result}::jsonb,
        error = ${outcome.error?.message ?? null}, error_code = ${outcome.error?.code ?? null},
        finished_at = now(), updated_at = now(), lease_owner = NULL, lease_expires_at = NULL
      WHERE id = ${id}::uuid AND status NOT IN ('completed', 'failed', 'cancelled') AND ${condition}`;
    return count > 0;
  }

  /** Records the job's session (created when its run starts). */
  async attachSession(id: string, owner: string, sessionId: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE job SET session_id = ${sessionId}::uuid, updated_at = now()
      WHERE id = ${id}::uuid AND lease_owner = ${owner}`;
  }

  /** Cancels a pending job at once, or asks the owner of a running one to stop. The job as it now is. */
  async requestCancel(id: string): Promise<JobRow | null> {
    await this.prisma.$executeRaw`
      WITH cancelled AS (
        UPDATE job SET status = 'cancelled', finished_at = now(), updated_at = now(),
          error = 'cancelled before it started', error_code = 'CANCELLED'
        WHERE id = ${id}::uuid AND status = 'pending' RETURNING id
      )
      UPDATE routine_fire SET outcome = 'cancelled', reason = 'cancelled before it started'
      WHERE job_id IN (SELECT id FROM cancelled)`;
    await this.prisma.$executeRaw`
      UPDATE job SET cancel_requested = true, updated_at = now()
      WHERE id = ${id}::uuid AND status IN ('running', 'waiting_approval', 'stuck')`;
    return this.prisma.job.findUnique({ where: { id } });
  }

  get(id: string): Promise<JobRow | null> {
    return this.prisma.job.findUnique({ where: { id } });
  }

  list(filter: { state?: JobState; routineId?: string; limit?: number }): Promise<JobRow[]> {
    return this.prisma.job.findMany({
      where: {
        ...(filter.state ? { status: filter.state } : {}),
        ...(filter.routineId ? { routineId: filter.routineId } : {}),
      },
      orderBy: { createdAt: 'desc' },
      take: filter.limit ?? 50,
    });
  }

  /**
   * Stores events of several jobs and ends jobs `owner` holds, all in one statement (one commit). Each
   * job's events get the next seqs after its highest stored one, in the order given. Each end writes
   * the job's state, result or error and releases its lease; records the outcome and duration on its
   * routine fire; resets its routine's failure count on success; and stores its final event numbered
   * after all of the job's events, these included. Returns the stored events in input order, and per
   * end the routine id (null without one) with the stored final event, or `undefined` when that job's
   * lease was lost and nothing of its end was written. (Counting a failure towards auto-disable is
   * the caller's.)
   */
  async storeEvents(
    owner: string,
    events: ReadonlyArray<NewJobEvent>,
    ends: ReadonlyArray<OwnedFinish> = [],
  ): Promise<{ events: JobEvent[]; ends: Array<FinishedJob | undefined> }> {
    if (events.length === 0 && ends.length === 0) return { events: [], ends: [] };
    const items = events.map((event, n) => ({ n, job_id: event.jobId, type: event.type, data: event.data }));
    const finishes = ends.map((end, n) => ({
      n,
      id: end.id,
      state: end.outcome.state,
      result: end.outcome.result === undefined ? null : end.outcome.result,
      error: end.outcome.error?.message ?? null,
      error_code: end.outcome.error?.code ?? null,
      failure: end.outcome.error ? `${end.outcome.error.code}: ${end.outcome.error.message}` : null,
      event_type: end.finalEvent.type,
      event_data: end.finalEvent.data,
    }));
    // Both inserts read the same snapshot: a final event is numbered after the job's stored events
    // and after those this statement stores.
    const rows = await this.prisma.$queryRaw<
      Array<{ kind: 'event' | 'end'; n: number; seq: number; at: Date; routine_id: string | null }>
    >`
      WITH items AS (
        SELECT (r.job_id)::uuid AS job_id, r.type, r.data, r.n
        FROM jsonb_to_recordset(${JSON.stringify(items)}::jsonb) AS r(job_id text, type text, data jsonb, n int)
      ), ends AS (
        SELECT r.n, r.id::uuid AS id, r.state, r.result, r.error, r.error_code, r.failure, r.event_type, r.event_data
        FROM jsonb_to_recordset(${JSON.stringify(finishes)}::jsonb) AS r(
          n int, id text, state text, result jsonb, error text, error_code text, failure text,
          event_type text, event_data jsonb)
      ), base AS (
        SELECT job_id, MAX(seq) AS seq FROM job_event
        WHERE job_id IN (SELECT job_id FROM items UNION SELECT id FROM ends) GROUP BY job_id
      ), numbered AS (
        SELECT i.job_id, i.type, i.data, i.n,
          COALESCE(b.seq, 0) + row_number() OVER (PARTITION BY i.job_id ORDER BY i.n) AS seq
        FROM items i LEFT JOIN base b ON b.job_id = i.job_id
      ), inserted AS (
        INSERT INTO job_event (job_id, seq, type, data)
        SELECT job_id, seq, type, data FROM numbered
        RETURNING job_id, seq, at
      ), done AS (
        UPDATE job AS j SET status = e.state, result = e.result, error = e.error, error_code = e.error_code,
          finished_at = now(), updated_at = now(), lease_owner = NULL, lease_expires_at = NULL
        FROM ends e
        WHERE j.id = e.id AND j.lease_owner = ${owner} AND j.status NOT IN ('completed', 'failed', 'cancelled')
        RETURNING e.n, j.id, j.routine_id, j.started_at, j.finished_at, e.state, e.failure, e.event_type, e.event_data
      ), fire AS (
        UPDATE routine_fire AS f SET outcome = d.state,
          duration_ms = (EXTRACT(EPOCH FROM d.finished_at - d.started_at) * 1000)::int,
          reason = COALESCE(d.failure, f.reason)
        FROM done d WHERE f.job_id = d.id
        RETURNING f.id
      ), reset AS (
        UPDATE routine SET consecutive_failures = 0, updated_at = now()
        WHERE consecutive_failures <> 0 AND id IN (SELECT routine_id FROM done WHERE state = 'completed')
        RETURNING id
      ), final_event AS (
        INSERT INTO job_event (job_id, seq, type, data)
        SELECT d.id,
          COALESCE((SELECT b.seq FROM base b WHERE b.job_id = d.id), 0)
            + (SELECT count(*) FROM items i WHERE i.job_id = d.id) + 1,
          d.event_type, d.event_data
        FROM done d
        RETURNING job_id, seq, at
      )
      SELECT 'event' AS kind, numbered.n, inserted.seq::int AS seq, inserted.at, NULL::uuid AS routine_id
      FROM inserted JOIN numbered ON numbered.job_id = inserted.job_id AND numbered.seq = inserted.seq
      UNION ALL
      SELECT 'end' AS kind, done.n, final_event.seq::int AS seq, final_event.at, done.routine_id
      FROM done JOIN final_event ON final_event.job_id = done.id`;
    const storedEvents = new Map<number, { seq: number; at: Date }>();
    const storedEnds = new Map<number, { seq: number; at: Date; routine_id: string | null }>();
    for (const row of rows) (row.kind === 'event' ? storedEvents : storedEnds).set(row.n, row);
    return {
      events: events.flatMap((event, n) => {
        const row = storedEvents.get(n);
        return row
          ? [{ ...event.data, jobId: event.jobId, seq: row.seq, type: event.type, at: row.at.toISOString() }]
          : [];
      }),
      ends: ends.map((end, n) => {
        const row = storedEnds.get(n);
        if (!row) return undefined;
        return {
          routineId: row.routine_id,
          event: {
            ...end.finalEvent.data,
            jobId: end.id,
            seq: row.seq,
            type: end.finalEvent.type,
            at: row.at.toISOString(),
          },
        };
      }),
    };
  }

  async events(jobId: string, afterSeq = 0, limit = 500): Promise<JobEvent[]> {
    const rows = await this.prisma.jobEvent.findMany({
      where: { jobId, seq: { gt: afterSeq } },
      orderBy: { seq: 'asc' },
      take: limit,
    });
    return rows.map((row) => ({
      ...(row.data as Record<string, unknown>),
      jobId: row.jobId,
      seq: row.seq,
      type: row.type,
      at: row.at.toISOString(),
    }));
  }
}
