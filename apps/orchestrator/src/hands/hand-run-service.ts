import { randomUUID } from 'node:crypto';
import {
  ERROR_CODES,
  type HandRun,
  type HandRunState,
  type HandSettingValues,
  type HandSummary,
  type HandsExecuteRequest,
  type HandsRunsListRequest,
  type JobsCreateRequest,
  type JobState,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { resolveHandSettings } from '@talon/hands';
import type { HandRun as HandRunRow, Job as JobRow, Prisma, PrismaClient } from '@talon/persistence';
import type { JobService } from '../autonomy/job-service.js';
import type { HandCatalog } from './hand-catalog.js';
import type { HandInstanceService } from './hand-instance-service.js';

/** What the `hand` job action carries: everything the run needs, fixed when it was requested. */
export interface HandJobParams {
  runId: string;
  settings: HandSettingValues;
  input?: string;
  instance?: string;
}

/** Options of the {@link HandRunService}. */
export interface HandRunServiceOptions {
  /** How long a run of a hand that requires approval waits before it counts as denied. */
  approvalTimeoutMs: number;
}

/**
 * Hand runs: each is a job with the hand's prompt, settings, tools (its allowlist, enforced at dispatch)
 * and limits. A hand that requires approval gets a run `awaiting_approval` and no job until a person
 * approves it (approving twice is a no-op; past the deadline it is denied). Runs are listed, read and
 * cancelled through the job they became. A hand job made elsewhere (a routine's fire, `jobs.create`) gets
 * its run when it starts ({@link HandRunService.begin}), with the same checks.
 */
export class HandRunService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: HandCatalog,
    private readonly instances: HandInstanceService,
    private readonly jobs: JobService,
    private readonly options: HandRunServiceOptions,
  ) {}

  async execute(request: HandsExecuteRequest, by: string): Promise<HandRun> {
    let handId = request.id;
    let base: HandSettingValues = {};
    if (request.instance !== undefined) {
      const instance = await this.instances.requireActive(request.instance);
      if (handId !== undefined && handId !== instance.handId)
        throw new TalonError(
          ERROR_CODES.SCHEMA_VIOLATION,
          `Instance "${request.instance}" runs hand "${instance.handId}", not "${handId}"; name one of them.`,
        );
      handId = instance.handId;
      base = instance.settings as HandSettingValues;
    }
    if (handId === undefined)
      throw new TalonError(ERROR_CODES.SCHEMA_VIOLATION, 'Name the hand (id) or an activated instance.');
    const hand = await this.catalog.require(handId);
    requireRunnable(hand);
    const settings = resolveHandSettings(hand, { ...base, ...request.settings });
    await this.checkRateLimit(hand);
    const id = randomUUID();
    const common = {
      id,
      handId: hand.id,
      instance: request.instance ?? null,
      settings: settings as Prisma.InputJsonValue,
      input: request.input ?? null,
      requestedBy: by,
    };
    if (hand.requiresApproval) {
      await this.prisma.handRun.create({
        data: {
          ...common,
          state: 'awaiting_approval',
          approvalDeadline: new Date(Date.now() + this.options.approvalTimeoutMs),
        },
      });
      return this.get(id);
    }
    await this.prisma.$transaction(async (tx) => {
      await tx.handRun.create({ data: { ...common, state: 'queued' } });
      await this.jobs.enqueue(id, this.jobRequest(hand, id, common.instance, settings, request.input), tx);
    });
    await this.jobs.announce(id, by, 'hand');
    return this.get(id);
  }

  /**
   * Approves (or denies) a run waiting for approval. Idempotent: a run already approved comes back as it
   * is; one past its deadline is denied and the approval refused.
   */
  async approve(runId: string, decision: 'approve' | 'deny', by: string): Promise<HandRun> {
    const approved = await this.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<HandRunRow[]>`
        SELECT id, hand_id AS "handId", instance, state, settings, input, approval_deadline AS "approvalDeadline"
        FROM hand_run WHERE id = ${runId}::uuid FOR UPDATE`;
      if (!row) throw runNotFound(runId);
      if (row.state === 'queued') {
        if (decision === 'deny')
          throw new TalonError(
            ERROR_CODES.POLICY_DENIED,
            `Run ${runId} was approved already; cancel it with hands.runs.cancel.`,
          );
        return false;
      }
      if (row.state !== 'awaiting_approval') {
        if (decision === 'deny') return false;
        throw new TalonError(
          ERROR_CODES.POLICY_DENIED,
          `Run ${runId} is ${row.state}; nothing to approve. Run the hand again with hands.execute.`,
          { details: { runId, state: row.state } },
        );
      }
      const now = new Date();
      if (row.approvalDeadline && row.approvalDeadline < now) {
        await tx.handRun.update({
          where: { id: runId },
          data: { state: 'denied', decidedBy: 'timeout', decidedAt: now },
        });
        return 'expired';
      }
      if (decision === 'deny') {
        await tx.handRun.update({
          where: { id: runId },
          data: { state: 'denied', decidedBy: by, decidedAt: now },
        });
        return false;
      }
      await tx.handRun.update({
        where: { id: runId },
        data: { state: 'queued', decidedBy: by, decidedAt: now },
      });
      // A routine's run waits in its own job (see begin): queued, it goes on.
      if (await tx.job.findUnique({ where: { id: runId }, select: { id: true } })) return false;
      const hand = await this.catalog.require(row.handId);
      await this.jobs.enqueue(
        runId,
        this.jobRequest(hand, runId, row.instance, row.settings as HandSettingValues, row.input ?? undefined),
        tx,
      );
      return true;
    });
    if (approved === 'expired')
      throw new TalonError(
        ERROR_CODES.TIMEOUT,
        `Run ${runId} waited past its approval deadline and was denied; run the hand again.`,
        { details: { runId } },
      );
    if (approved) await this.jobs.announce(runId, by, 'hand');
    return this.get(runId);
  }

  async get(runId: string): Promise<HandRun> {
    await this.expireApprovals();
    const row = await this.prisma.handRun.findUnique({ where: { id: runId } });
    if (!row) throw runNotFound(runId);
    const job = row.state === 'queued' ? await this.prisma.job.findUnique({ where: { id: runId } }) : null;
    return toRunView(row, job);
  }

  async list(filter: HandsRunsListRequest): Promise<HandRun[]> {
    await this.expireApprovals();
    const rows = await this.prisma.handRun.findMany({
      where: {
        ...(filter.hand ? { handId: filter.hand } : {}),
        ...(filter.instance ? { instance: filter.instance } : {}),
      },
      orderBy: { createdAt: 'desc' },
      take: 1000,
    });
    const jobs = await this.prisma.job.findMany({
      where: { id: { in: rows.filter((row) => row.state === 'queued').map((row) => row.id) } },
    });
    const byId = new Map(jobs.map((job) => [job.id, job]));
    return rows
      .map((row) => toRunView(row, byId.get(row.id) ?? null))
      .filter((run) => filter.state === undefined || run.state === filter.state)
      .slice(0, filter.limit ?? 100);
  }

  /** Cancels one run: a waiting one at once, a queued one through its job (a running tool call is stopped). */
  async cancel(runId: string, by: string): Promise<HandRun> {
    const row = await this.prisma.handRun.findUnique({ where: { id: runId } });
    if (!row) throw runNotFound(runId);
    if (row.state === 'awaiting_approval') {
      await this.prisma.handRun.updateMany({
        where: { id: runId, state: 'awaiting_approval' },
        data: { state: 'cancelled', decidedBy: by, decidedAt: new Date() },
      });
      if (await this.prisma.job.findUnique({ where: { id: runId }, select: { id: true } }))
        await this.jobs.cancel(runId, by);
    } else if (row.state === 'queued') await this.jobs.cancel(runId, by);
    return this.get(runId);
  }

  /** Cancels every unfinished run of a hand or of an instance. */
  async cancelAll(filter: { hand?: string; instance?: string }, by: string): Promise<HandRun[]> {
    if (!filter.hand && !filter.instance)
      throw new TalonError(ERROR_CODES.SCHEMA_VIOLATION, 'Name the hand (id) or the instance to cancel.');
    const runs = await this.list({ ...filter, limit: 500 });
    const open = runs.filter((run) => !FINISHED.has(run.state));
    return Promise.all(open.map((run) => this.cancel(run.id, by)));
  }

  /**
   * The run of a hand job as it starts; returns the settings it runs with. A run made by hands.execute has
   * its row already. Any other hand job (a routine's fire, `jobs.create`) gets its row now, with the checks
   * of hands.execute: the instance active, its settings under the action's, the options, gating, rate limit
   * and max_concurrent — a refusal fails the job, and the run shows it. A hand that requires approval waits
   * here, `awaiting_approval`, until a person decides (hands.approve) or the deadline denies it.
   */
  async begin(
    jobId: string,
    hand: HandSummary,
    params: Partial<HandJobParams>,
    signal: AbortSignal,
  ): Promise<HandSettingValues> {
    const existing = await this.prisma.handRun.findUnique({ where: { id: jobId } });
    if (existing) {
      // Waiting, or decided while a previous attempt waited (its orchestrator died): the decision holds.
      if (existing.state !== 'queued') await this.awaitDecision(jobId, signal);
      return existing.settings as HandSettingValues;
    }
    const job = await this.prisma.job.findUnique({ where: { id: jobId }, select: { routineId: true } });
    let settings: HandSettingValues = params.settings ?? {};
    let refusal: unknown;
    try {
      let base: HandSettingValues = {};
      if (params.instance) {
        const instance = await this.instances.requireActive(params.instance);
        if (instance.handId !== hand.id)
          throw new TalonError(
            ERROR_CODES.SCHEMA_VIOLATION,
            `Instance "${params.instance}" runs hand "${instance.handId}", not "${hand.id}"; fix the action.`,
          );
        base = instance.settings as HandSettingValues;
      }
      requireRunnable(hand);
      settings = resolveHandSettings(hand, { ...base, ...settings });
      await this.checkRateLimit(hand);
    } catch (error) {
      refusal = error;
    }
    const waits = refusal === undefined && hand.requiresApproval;
    await this.prisma.handRun.create({
      data: {
        id: jobId,
        handId: hand.id,
        instance: params.instance ?? null,
        settings: settings as Prisma.InputJsonValue,
        input: params.input ?? null,
        requestedBy: job?.routineId ? `routine:${job.routineId}` : 'jobs.create',
        // A refused run is queued: its job's failure is the run's state.
        state: waits ? 'awaiting_approval' : 'queued',
        ...(waits ? { approvalDeadline: new Date(Date.now() + this.options.approvalTimeoutMs) } : {}),
      },
    });
    if (refusal !== undefined) throw refusal;
    if (waits) await this.awaitDecision(jobId, signal);
    return settings;
  }

  /** Waits, polling, until a waiting run is approved; a denial, the deadline or a cancel throw. */
  private async awaitDecision(runId: string, signal: AbortSignal): Promise<void> {
    for (;;) {
      await this.expireApprovals();
      const row = await this.prisma.handRun.findUnique({ where: { id: runId } });
      if (!row || row.state === 'queued') return;
      if (row.state !== 'awaiting_approval')
        throw new TalonError(
          row.decidedBy === 'timeout' ? ERROR_CODES.TIMEOUT : ERROR_CODES.POLICY_DENIED,
          row.decidedBy === 'timeout'
            ? `Run ${runId} waited past its approval deadline and was denied.`
            : `Run ${runId} was ${row.state} by ${row.decidedBy ?? 'someone'} before it ran.`,
          { details: { runId, state: row.state } },
        );
      if (signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, DECISION_POLL_MS));
    }
  }

  /** Denies the runs whose approval deadline passed (called on reads and by the lifecycle's sweep). */
  async expireApprovals(): Promise<number> {
    const expired = await this.prisma.handRun.updateMany({
      where: { state: 'awaiting_approval', approvalDeadline: { lt: new Date() } },
      data: { state: 'denied', decidedBy: 'timeout', decidedAt: new Date() },
    });
    return expired.count;
  }

  /**
   * The job of a run: the hand and its params, its limits. Its allowlist is made as the run starts (the
   * hand's tools plus those of its MCP servers, started then), so the job's policy names no tools.
   */
  private jobRequest(
    hand: HandSummary,
    runId: string,
    instance: string | null,
    settings: HandSettingValues,
    input: string | undefined,
  ): JobsCreateRequest {
    const params: HandJobParams = {
      runId,
      settings,
      ...(input === undefined ? {} : { input }),
      ...(instance ? { instance } : {}),
    };
    const maxIterations =
      hand.agent.maxIterations === undefined ? undefined : Math.min(hand.agent.maxIterations, 100);
    return {
      action: { kind: 'hand', hand: hand.id, params: params as unknown as Record<string, unknown> },
      limits: {
        ...(maxIterations === undefined ? {} : { maxIterations }),
        ...(hand.timeoutMs === undefined ? {} : { maxWallTimeMs: Math.min(hand.timeoutMs, 86_400_000) }),
      },
    };
  }

  /** `[hand.rate_limit]` and `max_concurrent` of the hand, counted over its stored runs. */
  private async checkRateLimit(hand: HandSummary): Promise<void> {
    if (hand.rateLimit) {
      const since = new Date(Date.now() - hand.rateLimit.windowSeconds * 1000);
      // Runs the rate limit itself refused (a routine's, which keep their row) do not count.
      const [{ count }] = (await this.prisma.$queryRaw<Array<{ count: number }>>`
        SELECT count(*)::int AS count FROM hand_run r LEFT JOIN job j ON j.id = r.id
        WHERE r.hand_id = ${hand.id} AND r.created_at >= ${since}
          AND j.error_code IS DISTINCT FROM ${ERROR_CODES.RATE_LIMITED}`) as [{ count: number }];
      if (count >= hand.rateLimit.maxRuns)
        throw new TalonError(
          ERROR_CODES.RATE_LIMITED,
          `Hand "${hand.id}" ran ${count} times in the last ${hand.rateLimit.windowSeconds} s (its rate_limit); wait and try again.`,
          { details: { retryAfterMs: hand.rateLimit.windowSeconds * 1000 } },
        );
    }
    if (hand.maxConcurrent !== undefined) {
      const [{ count }] = (await this.prisma.$queryRaw<Array<{ count: number }>>`
        SELECT count(*)::int AS count FROM hand_run r JOIN job j ON j.id = r.id
        WHERE r.hand_id = ${hand.id} AND j.status NOT IN ('completed', 'failed', 'cancelled')`) as [
        { count: number },
      ];
      if (count >= hand.maxConcurrent)
        throw new TalonError(
          ERROR_CODES.RATE_LIMITED,
          `Hand "${hand.id}" already has ${count} run(s) unfinished (max_concurrent ${hand.maxConcurrent}); wait for one to end or cancel it.`,
          { details: { retryAfterMs: 5000 } },
        );
    }
  }
}

const FINISHED = new Set<HandRunState>(['denied', 'completed', 'failed', 'cancelled']);

/** How often a routine's run that waits for approval looks at its row. */
const DECISION_POLL_MS = 500;

/** System hands run on their own; a gated-out hand cannot run here. */
function requireRunnable(hand: HandSummary): void {
  if (hand.system)
    throw new TalonError(
      ERROR_CODES.POLICY_DENIED,
      `"${hand.id}" is a system hand and runs on its own; set a reminder in chat or with routines.create.`,
      { details: { id: hand.id } },
    );
  if (!hand.gating.eligible)
    throw new TalonError(
      ERROR_CODES.SKILL_GATED_OUT,
      `Hand "${hand.id}" cannot run here: ${hand.gating.reasons.join('; ')}.`,
      { details: { id: hand.id, reasons: hand.gating.reasons } },
    );
}

function toRunView(row: HandRunRow, job: JobRow | null): HandRun {
  const state: HandRunState =
    row.state === 'queued'
      ? ((job?.status as JobState | undefined) ?? 'pending')
      : (row.state as HandRunState);
  return {
    id: row.id,
    hand: row.handId,
    ...(row.instance ? { instance: row.instance } : {}),
    state,
    settings: row.settings as HandSettingValues,
    ...(row.input === null ? {} : { input: row.input }),
    requestedBy: row.requestedBy,
    ...(row.approvalDeadline ? { approvalDeadline: row.approvalDeadline.toISOString() } : {}),
    ...(row.decidedBy ? { decidedBy: row.decidedBy } : {}),
    ...(row.decidedAt ? { decidedAt: row.decidedAt.toISOString() } : {}),
    ...(job?.result == null ? {} : { result: job.result }),
    ...(job?.error ? { error: { code: job.errorCode ?? 'INTERNAL', message: job.error } } : {}),
    ...(row.state === 'denied' && !job
      ? {
          error: {
            code: row.decidedBy === 'timeout' ? 'TIMEOUT' : 'POLICY_DENIED',
            message:
              row.decidedBy === 'timeout' ? 'no approval before the deadline' : `denied by ${row.decidedBy}`,
          },
        }
      : {}),
    createdAt: row.createdAt.toISOString(),
    ...(job?.startedAt ? { startedAt: job.startedAt.toISOString() } : {}),
    ...(job?.finishedAt ? { finishedAt: job.finishedAt.toISOString() } : {}),
  };
}

function runNotFound(runId: string): TalonError {
  return new TalonError(ERROR_CODES.NOT_FOUND, `No hand run ${runId}; list them with hands.runs.list.`, {
    details: { runId },
  });
}
