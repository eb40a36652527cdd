import type { GrantStore, PolicyAction, SessionGrants } from '@talon/agent';
import type { ToolEffect } from '@talon/contracts';
import type { Database } from '@talon/persistence';

/** One `session_grant` row as read. */
interface GrantRow {
  kind: string;
  target: string;
  action: string;
}

/** Grants as the policy reads them, from their rows. */
function grantsFromRows(rows: readonly GrantRow[]): SessionGrants {
  const byEffect: Partial<Record<ToolEffect, PolicyAction>> = {};
  const byTool: Record<string, PolicyAction> = {};
  for (const row of rows) {
    if (row.kind === 'effect') byEffect[row.target as ToolEffect] = row.action as PolicyAction;
    else byTool[row.target] = row.action as PolicyAction;
  }
  return { byEffect, byTool };
}

/** Per-session grants in the database, so "always allow for this session" survives a restart. */
export class PrismaGrantStore implements GrantStore {
  private readonly prisma: Database['prisma'];

  constructor(private readonly database: Pick<Database, 'prisma' | 'query'>) {
    this.prisma = database.prisma;
  }

  /** Read on every gated call and every turn: beside Prisma, whose per-query CPU is 4× the read's (measured). */
  async get(sessionId: string): Promise<SessionGrants> {
    const rows = await this.database.query<GrantRow>(
      'SELECT kind, target, action FROM session_grant WHERE session_id = $1::text::uuid',
      [sessionId],
    );
    return grantsFromRows(rows);
  }

  setToolGrant(sessionId: string, tool: string, action: PolicyAction): Promise<void> {
    return this.set(sessionId, 'tool', tool, action);
  }

  setEffectGrant(sessionId: string, effect: ToolEffect, action: PolicyAction): Promise<void> {
    return this.set(sessionId, 'effect', effect, action);
  }

  private async set(
    sessionId: string,
    kind: 'tool' | 'effect',
    target: string,
    action: PolicyAction,
  ): Promise<void> {
    await this.prisma.sessionGrant.upsert({
      where: { sessionId_kind_target: { sessionId, kind, target } },
      create: { sessionId, kind, target, action },
      update: { action },
    });
  }
}
