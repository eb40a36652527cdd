import { diffOwnedRoutines, type OwnedRoutine } from '@talon/autonomy';
import type { PrismaClient } from '@talon/persistence';
import type { JsonLogger } from '@talon/service-runtime';
import type { RoutineService } from './routine-service.js';

/** Where the routines of one kind of definition (skills, hands) come from. */
export interface OwnedRoutineSource {
  /** The kind, for log lines: `skill`, `hand`. */
  readonly kind: string;
  /** The prefix of the owners of its routines: `skill:`, `hand:`. */
  readonly ownerPrefix: string;
  /**
   * The routines the definitions ask for, and the owners whose routines stay as they are (a definition
   * present but unreadable right now); undefined when the definitions cannot be read at all.
   */
  read(): Promise<{ wanted: OwnedRoutine[]; keepOwners?: readonly string[] } | undefined>;
}

/**
 * Keeps the routines a source's definitions ask for (skill triggers, hand triggers) in step with them:
 * every `intervalMs` it reads the source, creates the routines of new triggers (deterministic ids, so
 * several orchestrators create each once) and deletes those whose definition or trigger is gone. A
 * source that cannot be read changes nothing.
 */
export class OwnedRoutineSync {
  private timer?: NodeJS.Timeout;
  private syncing = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly source: OwnedRoutineSource,
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
    const kind = this.source.kind;
    try {
      const read = await this.source.read();
      if (!read) return;
      const existing = await this.prisma.routine.findMany({
        where: { owner: { startsWith: this.source.ownerPrefix } },
        select: { id: true, owner: true },
      });
      const { create, remove } = diffOwnedRoutines(
        read.wanted,
        existing,
        this.source.ownerPrefix,
        new Set(read.keepOwners ?? []),
      );
      for (const routine of create) {
        try {
          await this.routines.create(routine.request, routine.owner, routine.id);
          this.logger.write('info', `${kind} trigger became a routine`, {
            id: routine.id,
            name: routine.request.name,
          });
        } catch (error) {
          // Another orchestrator created it first (unique id), or the trigger is invalid: log and go on.
          if ((error as { code?: string }).code !== 'P2002')
            this.logger.write('warn', `${kind} trigger refused as a routine`, {
              name: routine.request.name,
              error: String(error),
            });
        }
      }
      for (const id of remove) {
        await this.routines.delete(id);
        this.logger.write('info', `${kind} trigger gone; routine removed`, { id });
      }
    } catch (error) {
      this.logger.write('warn', `${kind} routine sync failed`, { error: String(error) });
    } finally {
      this.syncing = false;
    }
  }
}
