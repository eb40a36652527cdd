import { leaseSchedule, type LeaseSchedule } from '@talon/agent';
import { afterJobOutcome, afterLostLease, resolveJobLimits } from '@talon/autonomy';
import type { ChatEvent, Guardrails, JobAction, JobLimits, JobPolicy, JobState } from '@talon/contracts';
import type { Job as JobRow, PrismaClient } from '@talon/persistence';
import type { JsonLogger } from '@talon/service-runtime';
import { countFinishedJob, observeFireLag } from './autonomy-metrics.js';
import type { JobActionHandlers, JobOutcome } from './job-action-handlers.js';
import type { JobEventLog } from './job-event-log.js';
import type { JobStore } from './job-store.js';

/** Options of the {@link JobRunner}. */
export interface JobRunnerOptions {
  owner: string;
  /** Jobs run at once by this orchestrator. Default 8. */
  concurrency?: number;
  /** Lease of a claimed job, renewed every third of it. Default 15000 ms. */
  leaseMs?: number;
  /** Queue poll interval while jobs run or were just claimed (a wake-up nudge claims at once). Default 250 ms. */
  pollMs?: number;
  /**
   * Poll interval while this runner is idle and found nothing to claim (never past the next lease sweep).
   * Every path that makes a job claimable wakes the runners (the scheduler, `jobs.create`, a takeover's
   * requeue runs in the same cycle), so this bounds only a lost nudge. Default 2000 ms.
   */
  idlePollMs?: number;
}

/** Why a local run was stopped. */
type StopReason = 'cancel' | 'wall_time' | 'tool_calls' | 'token_budget' | 'lease_lost';

interface ActiveJob {
  readonly controller: AbortController;
  stop?: StopReason;
  cancelledBy?: string;
}

/** Agent events kept in a job's stored history (the rest are only published). */
const STORED_EVENTS = new Set([
  'skills_selected',
  'tool_call_started',
  'tool_call_finished',
  'approval_requested',
  'approval_resolved',
  'message',
  'error',
  'turn_finished',
  'reminder',
]);

/**
 * Runs queued jobs on this orchestrator: claims pending ones (`FOR UPDATE SKIP LOCKED`) up to its
 * concurrency, renews their leases, and takes over jobs whose lease expired elsewhere (a waiting
 * approval resumes; a running attempt is retried if the policy allows, else failed with the reason).
 * Each run gets its own session; limits are enforced here: wall time (→ `stuck`, then cancelled), tool
 * calls and tokens (→ failed), iterations (in the loop).
 */
export class JobRunner {
  private readonly active = new Map<string, ActiveJob>();
  private readonly concurrency: number;
  readonly leaseMs: number;
  /** Renewal and takeover pacing, shared with turn leases (expiry itself is the database clock's). */
  private readonly schedule: LeaseSchedule;
  private readonly pollMs: number;
  private readonly idlePollMs: number;
  /** The last claim found nothing: while nothing runs here either, the next poll may wait `idlePollMs`. */
  private foundNothing = false;
  private timer?: NodeJS.Timeout;
  private stopped = true;
  private claiming = false;
  /** A slot freed (or a wake arrived) while claiming: claim once more. */
  private claimAgain = false;
  private lastRenew = 0;
  private lastTakeover = 0;
  /** Claimed jobs, for `system.status` and the benchmark. */
  claimed = 0;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly jobs: JobStore,
    private readonly events: JobEventLog,
    private readonly handlers: JobActionHandlers,
    private readonly logger: JsonLogger,
    private readonly options: JobRunnerOptions,
  ) {
    this.concurrency = options.concurrency ?? 8;
    this.leaseMs = options.leaseMs ?? 15_000;
    this.schedule = leaseSchedule(this.leaseMs);
    this.pollMs = options.pollMs ?? 250;
    this.idlePollMs = Math.max(this.pollMs, options.idlePollMs ?? 2_000);
  }

  start(): void {
    this.stopped = false;
    const loop = (): void => {
      if (this.stopped) return;
      void this.cycle().finally(() => {
        if (!this.stopped) this.timer = setTimeout(loop, this.nextPollMs());
      });
    };
    loop();
  }

  /** Stops claiming; jobs in flight keep running until the process exits (their leases then expire). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Claims at once (another orchestrator enqueued a job). */
  wake(): void {
    if (!this.stopped) void this.claimSome();
  }

  /** Stops a job this orchestrator runs; false when it does not run here. */
  cancelLocal(jobId: string, by: string): boolean {
    const active = this.active.get(jobId);
    if (!active) return false;
    this.halt(jobId, active, 'cancel', by);
    return true;
  }

  get running(): number {
    return this.active.size;
  }

  private async cycle(): Promise<void> {
    const now = Date.now();
    try {
      if (now - this.lastRenew >= this.schedule.renewEveryMs) {
        this.lastRenew = now;
        await this.renew();
      }
      if (now - this.lastTakeover >= this.schedule.sweepEveryMs) {
        this.lastTakeover = now;
        await this.takeOver();
      }
      await this.claimSome();
    } catch (error) {
      this.logger.write('warn', 'job runner cycle failed', { error: String(error) });
    }
  }

  private async claimSome(): Promise<void> {
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = true;
    try {
      do {
        this.claimAgain = false;
        const free = this.concurrency - this.active.size;
        const claimed = await this.jobs.claim(this.options.owner, free, this.leaseMs);
        this.foundNothing = claimed.length === 0;
        this.claimed += claimed.length;
        observeFireLag(claimed);
        for (const { job } of claimed) this.launch(job, false);
      } while (this.claimAgain && !this.stopped);
    } catch (error) {
      this.logger.write('warn', 'claiming jobs failed', { error: String(error) });
    } finally {
      this.claiming = false;
    }
  }

  /** A poll soon while work is about; an idle wait otherwise, ending no later than the next lease sweep. */
  private nextPollMs(): number {
    if (!this.foundNothing || this.active.size > 0) return this.pollMs;
    const untilSweep = this.lastTakeover + this.schedule.sweepEveryMs - Date.now();
    return Math.max(this.pollMs, Math.min(this.idlePollMs, untilSweep));
  }

  private async renew(): Promise<void> {
    const ids = [...this.active.keys()];
    const { held, cancelRequested } = await this.jobs.renew(this.options.owner, ids, this.leaseMs);
    for (const id of ids) {
      const active = this.active.get(id);
      if (!active) continue;
      if (!held.has(id)) this.halt(id, active, 'lease_lost');
      else if (cancelRequested.has(id)) this.halt(id, active, 'cancel', 'a cancel request');
    }
  }

  private async takeOver(): Promise<void> {
    const resume: string[] = [];
    const finished: Array<{ id: string; state: JobState; code: string; message: string }> = [];
    const retried: Array<{ id: string; from: string | null }> = [];
    await this.jobs.withExpired(10, async (job, tx) => {
      const from = job.leaseOwner ?? 'an orchestrator';
      if (job.status === 'waiting_approval') {
        await this.jobs.takeLease(job.id, this.options.owner, this.leaseMs, tx);
        resume.push(job.id);
      } else if (job.status === 'stuck') {
        const message = `past its wall time, and ${from} stopped renewing its lease before cancelling it`;
        await this.jobs.finish(
          job.id,
          undefined,
          { state: 'cancelled', error: { code: 'STUCK', message } },
          tx,
        );
        finished.push({ id: job.id, state: 'cancelled', code: 'STUCK', message });
      } else if (afterLostLease(job.attempt, job.maxAttempts) === 'retry') {
        await this.jobs.requeue(job.id, tx);
        retried.push({ id: job.id, from: job.leaseOwner });
      } else {
        const message = `${from} stopped renewing its lease during attempt ${job.attempt} (it died or lost the database); not retried (policy.maxAttempts ${job.maxAttempts})`;
        await this.jobs.finish(
          job.id,
          undefined,
          { state: 'failed', error: { code: 'LEASE_EXPIRED', message } },
          tx,
        );
        finished.push({ id: job.id, state: 'failed', code: 'LEASE_EXPIRED', message });
      }
    });
    for (const entry of retried)
      void this.events.record(entry.id, 'job.retried', {
        previousOwner: entry.from,
        takenOverBy: this.options.owner,
      });
    for (const entry of finished) {
      countFinishedJob(entry.state);
      void this.events.record(entry.id, 'job.finished', {
        state: entry.state,
        error: { code: entry.code, message: entry.message },
        takenOverBy: this.options.owner,
      });
      await this.settleRoutine(entry.id, entry.state, `${entry.code}: ${entry.message}`);
    }
    for (const id of resume) {
      const row = await this.jobs.get(id);
      if (row) {
        void this.events.record(id, 'job.taken_over', { owner: this.options.owner, state: row.status });
        this.launch(row, true);
      }
    }
  }

  private launch(row: JobRow, resume: boolean): void {
    const active: ActiveJob = { controller: new AbortController() };
    this.active.set(row.id, active);
    void this.execute(row, active, resume)
      .catch((error) => this.logger.write('error', 'job run failed', { jobId: row.id, error: String(error) }))
      .finally(() => {
        this.active.delete(row.id);
        // A slot is free: take the next job now rather than at the next poll.
        if (!this.stopped) void this.claimSome();
      });
  }

  private halt(jobId: string, active: ActiveJob, reason: StopReason, by?: string): void {
    if (active.stop !== undefined) return;
    active.stop = reason;
    if (by) active.cancelledBy = by;
    active.controller.abort(new Error(`job stopped: ${reason}`));
    if (reason !== 'lease_lost')
      void this.events.record(jobId, 'job.stopping', { reason, ...(by ? { by } : {}) });
  }

  private async execute(row: JobRow, active: ActiveJob, resume: boolean): Promise<void> {
    const owner = this.options.owner;
    const action = row.payload as JobAction;
    const policy = row.policy as JobPolicy;
    const limits = resolveJobLimits(row.limits as JobLimits);
    // A reminder needs no session of its own (it is delivered to the one it names, if any).
    const sessionId =
      action.kind === 'reminder'
        ? (row.sessionId ?? '')
        : resume && row.sessionId
          ? row.sessionId
          : await this.openSession(row, policy);
    void this.events.record(row.id, 'job.started', {
      attempt: row.attempt,
      owner,
      sessionId,
      resumed: resume,
    });

    let wallLeft = limits.maxWallTimeMs;
    let wallStarted = Date.now();
    let wallTimer: NodeJS.Timeout | undefined;
    const armWall = (): void => {
      wallStarted = Date.now();
      wallTimer = setTimeout(() => void this.markStuck(row.id, active), Math.max(0, wallLeft));
    };
    const pauseWall = (): void => {
      clearTimeout(wallTimer);
      wallLeft -= Date.now() - wallStarted;
    };
    armWall();
    let toolCalls = 0;
    let tokens = 0;
    const onEvent = (event: ChatEvent): void => {
      const record = event as Record<string, unknown>;
      if (event.type === 'text_delta')
        return this.events.live(row.id, 'job.text_delta', { text: record.text });
      if (event.type === 'tool_call_started' && ++toolCalls > limits.maxToolCalls)
        this.halt(row.id, active, 'tool_calls');
      if (event.type === 'usage' && record.scope === 'call') {
        const usage = record.usage as { inputTokens: number; outputTokens: number };
        tokens += usage.inputTokens + usage.outputTokens;
        if (limits.maxTokens !== undefined && tokens > limits.maxTokens)
          this.halt(row.id, active, 'token_budget');
      }
      if (event.type === 'approval_requested') {
        pauseWall();
        void this.jobs.setState(row.id, owner, 'waiting_approval');
        void this.events.record(row.id, 'job.waiting_approval', {
          approvalId: record.approvalId,
          tool: record.tool,
        });
      } else if (event.type === 'approval_resolved') {
        void this.jobs.setState(row.id, owner, 'running');
        armWall();
      }
      if (STORED_EVENTS.has(event.type)) {
        const { sessionId: _session, type, ...data } = record;
        void this.events.record(row.id, `job.${type as string}`, data);
      }
    };

    let outcome: JobOutcome;
    const handler = this.handlers.get(action.kind);
    try {
      outcome = handler
        ? await handler({
            jobId: row.id,
            routineId: row.routineId,
            sessionId,
            action,
            input: row.input ?? undefined,
            policy,
            limits,
            resume,
            signal: active.controller.signal,
            onEvent,
          })
        : { kind: 'failed', code: 'UNAVAILABLE', message: `no runtime for "${action.kind}" actions here` };
    } catch (error) {
      outcome = active.controller.signal.aborted
        ? { kind: 'interrupted' }
        : { kind: 'failed', code: 'INTERNAL', message: `the job failed: ${String(error)}` };
    } finally {
      clearTimeout(wallTimer);
    }
    if (outcome.kind === 'interrupted' && active.stop === undefined)
      outcome = {
        kind: 'failed',
        code: 'INTERNAL',
        message: 'the run stopped without a reason',
        result: outcome.result,
      };
    await this.conclude(row, active, outcome, limits);
  }

  private async conclude(
    row: JobRow,
    active: ActiveJob,
    outcome: JobOutcome,
    limits: ReturnType<typeof resolveJobLimits>,
  ): Promise<void> {
    if (active.stop === 'lease_lost') {
      this.logger.write('warn', 'job lease lost; another orchestrator took it over', { jobId: row.id });
      return;
    }
    let state: JobState;
    let error: { code: string; message: string } | undefined;
    const result = outcome.kind === 'completed' ? outcome.result : outcome.result;
    if (outcome.kind === 'completed') state = 'completed';
    else if (outcome.kind === 'failed') {
      state = 'failed';
      error = { code: outcome.code, message: outcome.message };
    } else {
      switch (active.stop) {
        case 'cancel':
          state = 'cancelled';
          error = { code: 'CANCELLED', message: `cancelled by ${active.cancelledBy ?? 'a person'}` };
          break;
        case 'wall_time':
          state = 'cancelled';
          error = {
            code: 'STUCK',
            message: `exceeded limits.maxWallTimeMs ${limits.maxWallTimeMs}; marked stuck, then cancelled`,
          };
          break;
        case 'tool_calls':
          state = 'failed';
          error = {
            code: 'LIMIT_EXCEEDED',
            message: `more than limits.maxToolCalls ${limits.maxToolCalls} tool calls`,
          };
          break;
        default:
          state = 'failed';
          error = {
            code: 'LIMIT_EXCEEDED',
            message: `more than limits.maxTokens ${limits.maxTokens} tokens`,
          };
      }
    }
    // The final state and `job.finished` are written in one statement, after every earlier event:
    // whoever reads a finished job reads its whole history.
    const finished = await this.events.finish(row.id, {
      state,
      ...(result === undefined ? {} : { result }),
      ...(error ? { error } : {}),
    });
    if (finished === undefined) return;
    countFinishedJob(state);
    const routineId = finished.routineId;
    if (routineId !== null && state === 'failed')
      await this.countFailure(routineId, `${error!.code}: ${error!.message}`);
  }

  private async markStuck(jobId: string, active: ActiveJob): Promise<void> {
    if (active.stop !== undefined) return;
    await this.jobs.setState(jobId, this.options.owner, 'stuck').catch(() => false);
    await this.events.record(jobId, 'job.stuck', { reason: 'past limits.maxWallTimeMs; cancelling' });
    this.halt(jobId, active, 'wall_time');
  }

  /** The job's own session, with the job's grants as session grants. */
  private async openSession(row: JobRow, policy: JobPolicy): Promise<string> {
    const session = await this.prisma.session.create({
      data: {
        title: `job ${row.id}`,
        autonomous: (policy.onApproval ?? 'deny') === 'deny',
        metadata: { jobId: row.id, ...(row.routineId ? { routineId: row.routineId } : {}) },
      },
    });
    if (policy.grants?.length)
      await this.prisma.sessionGrant.createMany({
        data: policy.grants.map((grant) => ({
          sessionId: session.id,
          kind: grant.kind,
          target: grant.target,
          action: grant.action,
        })),
        skipDuplicates: true,
      });
    await this.jobs.attachSession(row.id, this.options.owner, session.id);
    return session.id;
  }

  /** Records the end of a job finished by a takeover on its fire, and counts a failure on its routine. */
  private async settleRoutine(jobId: string, state: JobState, failure?: string): Promise<void> {
    const [job] = await this.prisma.$queryRaw<Array<{ routine_id: string | null }>>`
      UPDATE routine_fire SET outcome = ${state}, reason = COALESCE(${failure ?? null}, reason)
      WHERE job_id = ${jobId}::uuid RETURNING routine_id`;
    if (job?.routine_id && state === 'failed') await this.countFailure(job.routine_id, failure);
  }

  /** One more consecutive failure of a routine; at its guardrail's bound the routine disables itself. */
  private async countFailure(routineId: string, failure?: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const [routine] = await tx.$queryRaw<Array<{ guardrails: Guardrails; consecutive_failures: number }>>`
        SELECT guardrails, consecutive_failures FROM routine WHERE id = ${routineId}::uuid FOR UPDATE`;
      if (!routine) return;
      const next = afterJobOutcome(routine.guardrails, routine.consecutive_failures, false, failure);
      await tx.$executeRaw`
        UPDATE routine SET consecutive_failures = ${next.consecutiveFailures},
          disabled_reason = COALESCE(${next.disabledReason ?? null}, disabled_reason), updated_at = now()
        WHERE id = ${routineId}::uuid`;
      if (next.disabledReason)
        this.logger.write('warn', 'routine disabled itself', { routineId, reason: next.disabledReason });
    });
  }
}
