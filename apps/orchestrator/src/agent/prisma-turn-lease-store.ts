import type { TurnLeaseAcquisition, TurnLeaseStore } from '@talon/agent';
import type { Database } from '@talon/persistence';

/** $1 session, $2 turn, $3 owner, $4 lease seconds. */
const ACQUIRE = `
  WITH previous AS (SELECT owner FROM turn_lease WHERE session_id = $1::text::uuid)
  INSERT INTO turn_lease AS lease (session_id, turn_id, owner, expires_at)
  VALUES ($1::text::uuid, $2::text, $3::text, now() + make_interval(secs => $4::text::float8))
  ON CONFLICT (session_id) DO UPDATE SET turn_id = EXCLUDED.turn_id, owner = EXCLUDED.owner,
    expires_at = EXCLUDED.expires_at, acquired_at = now()
  WHERE lease.expires_at < now() OR lease.owner = EXCLUDED.owner
  RETURNING (SELECT owner FROM previous) AS previous`;

/** $1 session, $2 owner. */
const RELEASE = `
  WITH gone AS (
    DELETE FROM turn_lease WHERE session_id = $1::text::uuid AND owner = $2::text RETURNING session_id
  )
  DELETE FROM tool_call_claim WHERE session_id IN (SELECT session_id FROM gone)`;

/**
 * Turn leases in the `turn_lease` table. Every expiry is computed and compared with the database's
 * `now()`, so orchestrators whose clocks disagree still agree on who holds a session's turn. Acquire
 * and release, once per turn each, run beside Prisma (see `Database.query`).
 */
export class PrismaTurnLeaseStore implements TurnLeaseStore {
  private readonly prisma: Database['prisma'];

  constructor(private readonly database: Pick<Database, 'prisma' | 'query' | 'execute'>) {
    this.prisma = database.prisma;
  }

  /** One statement: insert, or take over a row that expired or is already ours; a live one stays. */
  async acquire(
    sessionId: string,
    turnId: string,
    owner: string,
    leaseMs: number,
  ): Promise<TurnLeaseAcquisition> {
    const rows = await this.database.query<{ previous: string | null }>(ACQUIRE, [
      sessionId,
      turnId,
      owner,
      String(leaseMs / 1000),
    ]);
    if (rows.length === 0) return { acquired: false };
    const previous = rows[0]!.previous;
    return { acquired: true, ...(previous === null ? {} : { previousOwner: previous }) };
  }

  async renew(owner: string, sessionIds: readonly string[], leaseMs: number): Promise<ReadonlySet<string>> {
    const rows = await this.prisma.$queryRaw<Array<{ session_id: string }>>`
      UPDATE turn_lease SET expires_at = now() + make_interval(secs => ${leaseMs / 1000}::float8)
      WHERE session_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(sessionIds)}::jsonb)::uuid)
        AND owner = ${owner}
      RETURNING session_id`;
    return new Set(rows.map((row) => row.session_id));
  }

  /** The lease and the turn's tool call claims go together (every call of a finished turn has a result). */
  async release(sessionId: string, owner: string): Promise<void> {
    await this.database.execute(RELEASE, [sessionId, owner]);
  }

  expireAll(owner: string): Promise<number> {
    return this.prisma.$executeRaw`
      UPDATE turn_lease SET expires_at = now() - interval '1 millisecond' WHERE owner = ${owner}`;
  }

  async listExpired(limit: number): Promise<readonly string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ session_id: string }>>`
      SELECT session_id FROM turn_lease WHERE expires_at < now() ORDER BY expires_at LIMIT ${limit}`;
    return rows.map((row) => row.session_id);
  }
}
