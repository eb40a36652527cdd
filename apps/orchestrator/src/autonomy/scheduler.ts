import { isScheduled, planFires, type ScheduledTrigger } from '@talon/autonomy';
import type { Guardrails, Trigger } from '@talon/contracts';
import type { Prisma, PrismaClient } from '@talon/persistence';
import type { JsonLogger } from '@talon/service-runtime';
import { countFires } from './autonomy-metrics.js';
import { commitFires, type FiringRoutine, type RoutineFires } from './fire-committer.js';
import type { JobStore } from './job-store.js';

/** A due routine as the tick's locking statement reads it (column names). */
interface DueRoutineRow {
  id: string;
  trigger: Prisma.JsonValue;
  action: Prisma.JsonValue;
  policy: Prisma.JsonValue;
  limits: Prisma.JsonValue;
  guardrails: Prisma.JsonValue;
  next_fire_at: Date | null;
  last_fire_at: Date | null;
  created_at: Date;
  now: Date;
}

function fromDueRow(row: DueRoutineRow): FiringRoutine & {
  trigger: Prisma.JsonValue;
  nextFireAt: Date | null;
  createdAt: Date;
  now: Date;
} {
  return {
    id: row.id,
    trigger: row.trigger,
    action: row.action,
    policy: row.policy,
    limits: row.limits,
    guardrails: row.guardrails,
    nextFireAt: row.next_fire_at,
    lastFireAt: row.last_fire_at,
    createdAt: row.created_at,
    now: row.now,
  };
}

/** Options of the {@link Scheduler}. */
export interface SchedulerOptions {
  /** This orchestrator's instance id (recorded as the claimant of each fire). */
  owner: string;
  /** Time between ticks while a slot is due or comes due within it (sooner for a sooner slot). Default 250 ms. */
  tickMs?: number;
  /**
   * Longest time between ticks when no slot comes due sooner. Routines created, changed or resumed on this
   * orchestrator wake it at once (`poke`); one written by another orchestrator is that one's to fire
   * (its scheduler is poked), and this one sees it within this bound should that one die. Default 2 s.
   */
  idleTickMs?: number;
  /**
   * Routines handled per transaction; a tick runs transactions until none is due (the runners are
   * woken after each commit, when its jobs become claimable). Default 500.
   */
  batchSize?: number;
  /** Called after a batch of a tick enqueued jobs (to wake the job runners). */
  onEnqueued?: (count: number) => void;
}

/** Measured by the scheduler, for `system.status` and the benchmark. */
export interface SchedulerStats {
  ticks: number;
  fires: number;
  skipped: number;
  lastTickMs: number;
}

/**
 * Fires due routines. Every orchestrator runs one, ticking every `tickMs` or, when a slot falls due
 * sooner, at that slot's instant. Each tick, in one transaction, it locks the due
 * routines no other orchestrator holds (`FOR UPDATE SKIP LOCKED` on `next_fire_at <= now()`, the
 * database clock), plans their slots (catch-up policy, in the routine's timezone), claims each slot by
 * a unique insert into `routine_fire`, enqueues the jobs, and moves `next_fire_at` past now — all
 * committed together, so a slot is fired once, or (if the orchestrator dies mid-tick) not yet and
 * claimed by the next tick of another.
 */
export class Scheduler {
  readonly stats: SchedulerStats = { ticks: 0, fires: 0, skipped: 0, lastTickMs: 0 };
  private readonly tickMs: number;
  private readonly idleTickMs: number;
  private readonly batchSize: number;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  /** Set while a tick runs and a poke arrived: tick again as soon as it ends. */
  private poked = false;
  private loop?: () => void;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly jobs: JobStore,
    private readonly logger: JsonLogger,
    private readonly options: SchedulerOptions,
  ) {
    this.tickMs = options.tickMs ?? 250;
    this.idleTickMs = Math.max(this.tickMs, options.idleTickMs ?? 2_000);
    this.batchSize = options.batchSize ?? 500;
  }

  start(): void {
    this.stopped = false;
    const loop = (): void => {
      if (this.stopped) return;
      this.timer = undefined;
      this.poked = false;
      this.running = this.tick()
        .then(() => this.nextTickInMs())
        .catch((error) => {
          this.logger.write('warn', 'scheduler tick failed', { error: String(error) });
          return this.tickMs;
        })
        .then((delayMs) => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(loop, this.poked ? 0 : delayMs);
        });
    };
    this.loop = loop;
    loop();
  }

  /** A routine's schedule changed here: tick now instead of at the end of an idle wait. */
  poke(): void {
    if (this.stopped || !this.loop) return;
    if (this.running) {
      this.poked = true;
      return;
    }
    clearTimeout(this.timer);
    this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One tick; returns how many jobs it enqueued. */
  async tick(): Promise<number> {
    const started = performance.now();
    let enqueued = 0;
    for (;;) {
      const { count, more } = await this.tickBatch();
      enqueued += count;
      if (count > 0) this.options.onEnqueued?.(count);
      if (!more || this.stopped) break;
    }
    this.stats.ticks++;
    this.stats.lastTickMs = performance.now() - started;
    return enqueued;
  }

  /**
   * How long to wait for the next tick: until the earliest next slot when it comes within a tick
   * (measured on the database clock, as due-ness is), so a slot at a whole second is fired at that
   * second rather than up to a tick later; otherwise a tick. A slot already due is another
   * orchestrator's to fire (it holds the routine) or the next batch's: wait a tick, do not spin.
   */
  private async nextTickInMs(): Promise<number> {
    const [row] = await this.prisma.$queryRaw<Array<{ in_ms: number | null }>>`
      SELECT (EXTRACT(EPOCH FROM (min(next_fire_at) - now())) * 1000)::float8 AS in_ms FROM routine
      WHERE NOT paused AND disabled_reason IS NULL`;
    const inMs = row?.in_ms ?? null;
    if (inMs === null) return this.idleTickMs;
    if (inMs <= 0) return this.tickMs;
    if (inMs >= this.tickMs) return Math.min(Math.ceil(inMs) + 1, this.idleTickMs);
    // The statement's now() was read before its reply travelled back: waiting the full difference
    // lands a little after the slot, never before it.
    return Math.ceil(inMs) + 1;
  }

  private async tickBatch(): Promise<{ count: number; more: boolean }> {
    const committed = await this.prisma.$transaction(
      async (tx) => {
        // One statement locks the due routines and reads what planning needs (and the database clock):
        // a thousand due at one second are fired by a transaction shorter by two round trips.
        const routines = (
          await tx.$queryRaw<DueRoutineRow[]>`
            SELECT id, trigger, action, policy, limits, guardrails, next_fire_at, last_fire_at, created_at,
              now() AS now
            FROM routine
            WHERE next_fire_at <= now() AND NOT paused AND disabled_reason IS NULL
            ORDER BY next_fire_at LIMIT ${this.batchSize} FOR UPDATE SKIP LOCKED`
        ).map(fromDueRow);
        if (routines.length === 0) return { fires: [], more: false };
        const now = routines[0]!.now;
        const batch: RoutineFires[] = [];
        for (const routine of routines) {
          const trigger = routine.trigger as Trigger;
          if (!isScheduled(trigger) || routine.nextFireAt === null) {
            batch.push({ routine, fires: [], next: null });
            continue;
          }
          const plan = planFires(
            trigger as ScheduledTrigger,
            routine.nextFireAt,
            now,
            routine.createdAt,
            routine.guardrails as Guardrails,
          );
          if (plan.skipped > 0) {
            this.stats.skipped += plan.skipped;
            this.logger.write('info', 'routine missed slots while no orchestrator ran', {
              routineId: routine.id,
              missed: plan.skipped,
              // A cron down for long has more missed slots than are counted; `missed` is then a lower bound.
              ...(plan.skippedExact ? {} : { missedAtLeast: true }),
              catchUp: (routine.guardrails as Guardrails).catchUp ?? 'skip',
            });
          }
          batch.push({
            routine,
            fires: plan.fires.map((fire) => ({
              slotAt: fire.slotAt,
              slotKey: fire.slotAt.toISOString(),
              source: fire.source,
            })),
            next: plan.next ?? null,
          });
        }
        const fires = await commitFires(tx, this.jobs, this.options.owner, now, batch);
        return { fires, more: routines.length === this.batchSize };
      },
      { timeout: 30_000, maxWait: 10_000 },
    );
    this.stats.fires += committed.fires.length;
    countFires(committed.fires);
    return {
      count: committed.fires.filter((fire) => fire.outcome === 'enqueued').length,
      more: committed.more,
    };
  }
}
