import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@talon/auth';
import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { EpochReadCache, type Database } from '@talon/persistence';
import { DATABASE } from '../config/orchestrator.constants.js';

/**
 * Which sessions a caller may use. Operators use every session; a token with the agent scope only the
 * sessions it created. Someone else's session answers NOT_FOUND, so ids cannot be probed.
 */
@Injectable()
export class SessionAccess {
  /**
   * Owners read once and shared until a session may have been created, deleted or re-owned (see
   * `Database.changeEpoch`): every call of an agent-scope token names a session, and Prisma's read doubled
   * the orchestrator's CPU per `tools.call` (measured).
   */
  private readonly owners: EpochReadCache;

  constructor(@Inject(DATABASE) private readonly database: Database) {
    this.owners = new EpochReadCache(database.changeEpoch, ['session']);
  }

  /** The owner to record on a new session. */
  ownerFor(principal: Principal | undefined): string | null {
    return principal && principal.scope !== 'operator' ? principal.id : null;
  }

  /** A filter for session queries: none for operators, else the caller's own sessions. */
  ownerFilter(principal: Principal | undefined): { ownerId?: string } {
    return principal?.scope === 'operator' ? {} : { ownerId: principal?.id ?? '\u0000none' };
  }

  async assertCanUse(principal: Principal | undefined, sessionId: string): Promise<void> {
    if (principal?.scope === 'operator') return;
    const owner = await this.owners.read(sessionId, () => this.ownerOf(sessionId));
    if (owner === undefined || !principal || owner !== principal.id) throw this.notFound(sessionId);
  }

  /** The session's owner: null when an operator created it, undefined when there is no such session. */
  private async ownerOf(sessionId: string): Promise<string | null | undefined> {
    const row = await this.database.prisma.session.findUnique({
      where: { id: sessionId },
      select: { ownerId: true },
    });
    return row ? row.ownerId : undefined;
  }

  /** The ids among `sessionIds` the caller may use. */
  async usable(principal: Principal | undefined, sessionIds: string[]): Promise<Set<string>> {
    if (principal?.scope === 'operator') return new Set(sessionIds);
    if (!principal || sessionIds.length === 0) return new Set();
    const rows = await this.database.prisma.session.findMany({
      where: { id: { in: [...new Set(sessionIds)] }, ownerId: principal.id },
      select: { id: true },
    });
    return new Set(rows.map((row) => row.id));
  }

  private notFound(sessionId: string): TalonError {
    return new TalonError(
      ERROR_CODES.NOT_FOUND,
      `No session ${sessionId} for this token; create one with sessions.create.`,
      { details: { id: sessionId } },
    );
  }
}
