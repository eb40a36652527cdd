import type { ToolCallClaimResult, ToolCallClaimStore, ToolCallToClaim, TurnFence } from '@talon/agent';
import type { PrismaClient } from '@talon/persistence';

/**
 * Tool call claims in `tool_call_claim`: the primary key (session, call id) lets one insert win. A
 * leased fence inserts only while its owner holds the session's turn lease, read `FOR SHARE` so a
 * takeover committing at that moment is waited for and then seen, never missed.
 */
export class PrismaToolCallClaimStore implements ToolCallClaimStore {
  constructor(private readonly prisma: PrismaClient) {}

  async claim(
    sessionId: string,
    turnId: string,
    calls: readonly ToolCallToClaim[],
    fence: TurnFence,
  ): Promise<ToolCallClaimResult> {
    const items = JSON.stringify(calls.map((call) => ({ call_id: call.callId, tool: call.tool })));
    const rows = await this.prisma.$queryRaw<Array<{ held: boolean; claimed: string[] }>>`
      WITH lease AS (
        SELECT 1 FROM turn_lease WHERE session_id = ${sessionId}::uuid AND owner = ${fence.owner} FOR SHARE
      ), allowed AS (
        SELECT (NOT ${fence.leased}) OR EXISTS (SELECT 1 FROM lease) AS held
      ), inserted AS (
        INSERT INTO tool_call_claim (session_id, call_id, turn_id, tool, owner)
        SELECT ${sessionId}::uuid, item.call_id, ${turnId}, item.tool, ${fence.owner}
        FROM jsonb_to_recordset(${items}::jsonb) AS item(call_id text, tool text), allowed
        WHERE allowed.held
        ON CONFLICT (session_id, call_id) DO NOTHING
        RETURNING call_id
      )
      SELECT (SELECT held FROM allowed) AS held,
        COALESCE((SELECT array_agg(call_id) FROM inserted), ARRAY[]::text[]) AS claimed`;
    const row = rows[0]!;
    return { held: row.held, claimed: new Set(row.claimed) };
  }

  async started(sessionId: string, callIds: readonly string[]): Promise<ReadonlySet<string>> {
    if (callIds.length === 0) return new Set();
    const rows = await this.prisma.toolCallClaim.findMany({
      where: { sessionId, callId: { in: [...callIds] } },
      select: { callId: true },
    });
    return new Set(rows.map((row) => row.callId));
  }

  async forget(sessionId: string): Promise<void> {
    await this.prisma.toolCallClaim.deleteMany({ where: { sessionId } });
  }
}
