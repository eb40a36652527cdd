import type { ToolCallClaimResult, ToolCallClaimStore, ToolCallToClaim, TurnFence } from '@talon/agent';
import type { Database } from '@talon/persistence';

/**
 * $1 session, $2 turn, $3 fence owner, $4 fence leased, $5 the calls as JSON. One JSON text back, so it
 * reads the same on both drivers (see `Database.query`).
 */
const CLAIM = `
  WITH lease AS (
    SELECT 1 FROM turn_lease WHERE session_id = $1::text::uuid AND owner = $3::text FOR SHARE
  ), allowed AS (
    SELECT (NOT $4::text::boolean) OR EXISTS (SELECT 1 FROM lease) AS held
  ), inserted AS (
    INSERT INTO tool_call_claim (session_id, call_id, turn_id, tool, owner)
    SELECT $1::text::uuid, item.call_id, $2::text, item.tool, $3::text
    FROM jsonb_to_recordset($5::text::jsonb) AS item(call_id text, tool text), allowed
    WHERE allowed.held
    ON CONFLICT (session_id, call_id) DO NOTHING
    RETURNING call_id
  )
  SELECT json_build_object(
    'held', (SELECT held FROM allowed),
    'claimed', COALESCE((SELECT json_agg(call_id) FROM inserted), '[]'::json)
  )::text AS row`;

/**
 * Tool call claims in `tool_call_claim`: the primary key (session, call id) lets one insert win. A
 * leased fence inserts only while its owner holds the session's turn lease, read `FOR SHARE` so a
 * takeover committing at that moment is waited for and then seen, never missed. The claim, once per
 * batch of calls, runs beside Prisma.
 */
export class PrismaToolCallClaimStore implements ToolCallClaimStore {
  private readonly prisma: Database['prisma'];

  constructor(private readonly database: Pick<Database, 'prisma' | 'query'>) {
    this.prisma = database.prisma;
  }

  async claim(
    sessionId: string,
    turnId: string,
    calls: readonly ToolCallToClaim[],
    fence: TurnFence,
  ): Promise<ToolCallClaimResult> {
    const items = JSON.stringify(calls.map((call) => ({ call_id: call.callId, tool: call.tool })));
    const [result] = await this.database.query<{ row: string }>(CLAIM, [
      sessionId,
      turnId,
      fence.owner,
      String(fence.leased),
      items,
    ]);
    const row = JSON.parse(result!.row) as { held: boolean; claimed: string[] };
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
