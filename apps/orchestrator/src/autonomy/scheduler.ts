import { isScheduled, planFires, type ScheduledTrigger } from '@talon/autonomy';
import type { Guardrails, Trigger } from '@talon/contracts';
import type { PrismaClient } from '@talon/persistence';
import type { JsonLogger } from '@talon/service-runtime';
import { countFires } from './autonomy-metrics.js';
import { commitFires, type RoutineFires } from './fire-committer.js';
import type { JobStore } from './job-store.js';

/** Options of the {@link Scheduler}. */
export interface SchedulerOptions {
  /** This orchestrator's instance id (recorded as the claimant of each fire). */
  owner: string;
  /** Time between ticks. Default 250 ms. */
  tickMs?: number;
  /** Routines handled per tick at most (the rest wait for the next one). Default 500. */
  batchSize?: number;
  /** Called after a tick enqueued jobs (to wake the job runners). */
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
 * Fires due routines. Every orchestrator runs one; each tick, in one transaction, it locks the due
 * routines no other orchestrator holds (`FOR UPDATE SKIP LOCKED` on `next_fire_at <= now()`, the
 * database clock), plans their slots (catch-up policy, in the routine's timezone), claims each slot by
 * a unique insert into `routine_fire`, enqueues the jobs, and moves `next_fire_at` past now — all
 * committed together, so a slot is fired once, or (if the orchestrator dies mid-tick) not yet and
 * claimed by the next tick of another.
 */
export class Scheduler {
  readonly stats: SchedulerStats = { ticks: 0, fires: 0, skipped: 0, lastTickMs: 0 };
  private readonly tickMs: number;
  private readonly batchSize: number;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly jobs: JobStore,
    private readonly logger: JsonLogger,
    private readonly options: SchedulerOptions,
  ) {
    this.tickMs = options.tickMs ?? 250;
    this.batchSize = options.batchSize ?? 500;
  }

  start(): void {
    this.stopped = false;
    const loop = (): void => {
      if (this.stopped) return;
      this.running = this.tick()
        .then(() => undefined)
        .catch((error) => this.logger.write('warn', 'scheduler tick failed', { error: String(error) }))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.tickMs);
        });
    };
    loop();
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
      if (!more || this.stopped) break;
    }
    this.stats.ticks++;
    this.stats.lastTickMs = performance.now() - started;
    if (enqueued > 0) this.options.onEnqueued?.(enqueued);
    return enqueued;
  }

  private async tickBatch(): Promise<{ count: number; more: boolean }> {
    const committed = await this.prisma.$transaction(
      async (tx) => {
        const [{ now }] = (await tx.$queryRaw<Array<{ now: Date }>>`SELECT now() AS now`) as [{ now: Date }];
        const due = await tx.$queryRaw<Array<{ id: string }>>`
          SELECT id FROM routine
          WHERE next_fire_at <= ${now} AND NOT paused AND disabled_reason IS NULL
          ORDER BY next_fire_at LIMIT ${this.batchSize} FOR UPDATE SKIP LOCKED`;
        if (due.length === 0) return { fires: [], more: false };
        const routines = await tx.routine.findMany({ where: { id: { in: due.map((row) => row.id) } } });
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
        return { fires, more: due.length === this.batchSize };
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
