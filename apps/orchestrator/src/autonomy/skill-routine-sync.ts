import { diffSkillRoutines, skillRoutines } from '@talon/autonomy';
import type { PrismaClient } from '@talon/persistence';
import type { JsonLogger } from '@talon/service-runtime';
import type { SkillServiceClient } from '../skills/skill-service-client.js';
import type { RoutineService } from './routine-service.js';

/**
 * Keeps skill-owned routines in step with the skills' `schedule` and `webhook` triggers: every
 * `intervalMs` it reads the trigger table from the skill-service, creates the routines of new triggers
 * (deterministic ids, so several orchestrators create each once) and deletes those whose skill or
 * trigger is gone. A skill-service that does not answer changes nothing.
 */
export class SkillRoutineSync {
  private timer?: NodeJS.Timeout;
  private syncing = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly skills: SkillServiceClient,
    private readonly routines: RoutineService,
    private readonly logger: JsonLogger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sync(), this.intervalMs);
    this.timer.unref();
    void this.sync();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async sync(): Promise<void> {
    if (this.syncing) return;
    this.syncing = true;
    try {
      let table;
      try {
        table = await this.skills.triggers({ timeoutMs: 2_000 });
      } catch {
        return;
      }
      const existing = await this.prisma.routine.findMany({
        where: { owner: { startsWith: 'skill:' } },
        select: { id: true, owner: true },
      });
      const { create, remove } = diffSkillRoutines(skillRoutines(table), existing);
      for (const routine of create) {
        try {
          await this.routines.create(routine.request, routine.owner, routine.id);
          this.logger.write('info', 'skill trigger became a routine', {
            id: routine.id,
            name: routine.request.name,
          });
        } catch (error) {
          // Another orchestrator created it first (unique id), or the trigger is invalid: log and go on.
          if ((error as { code?: string }).code !== 'P2002')
            this.logger.write('warn', 'skill trigger refused as a routine', {
              name: routine.request.name,
              error: String(error),
            });
        }
      }
      for (const id of remove) {
        await this.routines.delete(id);
        this.logger.write('info', 'skill trigger gone; routine removed', { id });
      }
    } catch (error) {
      this.logger.write('warn', 'skill routine sync failed', { error: String(error) });
    } finally {
      this.syncing = false;
    }
  }
}
