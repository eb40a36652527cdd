import type { ApprovalDecision, ApprovalRecord, ApprovalResolveOutcome, ApprovalStore } from '@talon/agent';
import { statusOfDecision } from '@talon/agent';
import type { Approval, Database, PrismaClient } from '@talon/persistence';

function toRecord(row: Approval): ApprovalRecord {
  return {
    id: row.id,
    sessionId: row.sessionId,
    ...(row.turnId ? { turnId: row.turnId } : {}),
    callId: row.callId,
    tool: row.tool,
    params: row.paramsRedacted as Record<string, unknown>,
    reason: row.reason,
    status: row.status as ApprovalRecord['status'],
    ...(row.decision ? { decision: row.decision as ApprovalDecision } : {}),
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
    ...(row.resolvedAt ? { resolvedAt: row.resolvedAt.getTime() } : {}),
    ...(row.resolvedBy ? { resolvedBy: row.resolvedBy } : {}),
  };
}

/** An approval row as the JSON text `findByCall` reads (timestamps as ISO strings). */
type ApprovalJson = Omit<Approval, 'createdAt' | 'expiresAt' | 'resolvedAt'> & {
  createdAt: string;
  expiresAt: string;
  resolvedAt: string | null;
};

/**
 * The latest approval of call `$2` in session `$1` as one JSON value (NULL when there is none), for
 * {@link approvalFromJson}; JSON reads the same on both drivers (see `Database.query`).
 */
const APPROVAL_BY_CALL_JSON = `(SELECT json_build_object(
  'id', id, 'sessionId', session_id, 'callId', call_id, 'tool', tool, 'paramsRedacted', params_redacted,
  'turnId', turn_id, 'reason', reason, 'status', status, 'createdAt', created_at, 'expiresAt', expires_at,
  'resolvedAt', resolved_at, 'resolvedBy', resolved_by, 'decision', decision)
FROM approval WHERE session_id = $1::text::uuid AND call_id = $2 ORDER BY created_at DESC LIMIT 1)`;

const FIND_BY_CALL = `SELECT ${APPROVAL_BY_CALL_JSON}::text AS row`;

/** An approval read as {@link APPROVAL_BY_CALL_JSON}. */
function approvalFromJson(row: ApprovalJson): ApprovalRecord {
  return toRecord({
    ...row,
    createdAt: new Date(row.createdAt),
    expiresAt: new Date(row.expiresAt),
    resolvedAt: row.resolvedAt === null ? null : new Date(row.resolvedAt),
  });
}

/** Approvals in the database: they survive a restart and every orchestrator sees the same state. */
export class PrismaApprovalStore implements ApprovalStore {
  private readonly prisma: PrismaClient;

  constructor(private readonly database: Pick<Database, 'prisma' | 'query'>) {
    this.prisma = database.prisma;
  }

  async create(record: ApprovalRecord): Promise<void> {
    await this.prisma.approval.create({
      data: {
        id: record.id,
        sessionId: record.sessionId,
        turnId: record.turnId ?? null,
        callId: record.callId,
        tool: record.tool,
        paramsRedacted: record.params as object,
        reason: record.reason,
        status: record.status,
        createdAt: new Date(record.createdAt),
        expiresAt: new Date(record.expiresAt),
      },
    });
  }

  /**
   * Count and insert under a per-session transaction lock, so requests racing on several orchestrators
   * are serialised and the second statement counts what the first one of another request inserted.
   */
  async createWithinCap(record: ApprovalRecord, maxPending: number): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`approval-cap:${record.sessionId}`}, 0))`;
      const inserted = await tx.$executeRaw`
        INSERT INTO approval (id, session_id, turn_id, call_id, tool, params_redacted, reason, status, created_at, expires_at)
        SELECT ${record.id}::uuid, ${record.sessionId}::uuid, ${record.turnId ?? null}, ${record.callId},
          ${record.tool}, ${JSON.stringify(record.params)}::jsonb, ${record.reason}, ${record.status},
          ${new Date(record.createdAt)}, ${new Date(record.expiresAt)}
        WHERE (SELECT count(*) FROM approval WHERE session_id = ${record.sessionId}::uuid AND status = 'pending') < ${maxPending}`;
      return inserted === 1;
    });
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const row = await this.prisma.approval.findUnique({ where: { id } });
    return row ? toRecord(row) : undefined;
  }

  async listPending(sessionId?: string): Promise<readonly ApprovalRecord[]> {
    const rows = await this.prisma.approval.findMany({
      where: { status: 'pending', ...(sessionId ? { sessionId } : {}) },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map(toRecord);
  }

  /** Compare-and-set on `status = pending`: a person and the timeout racing settle exactly once. */
  async resolve(
    id: string,
    decision: ApprovalDecision,
    resolvedBy: string,
    resolvedAt: number,
  ): Promise<ApprovalResolveOutcome | undefined> {
    const { count } = await this.prisma.approval.updateMany({
      where: { id, status: 'pending' },
      data: { status: statusOfDecision(decision), decision, resolvedBy, resolvedAt: new Date(resolvedAt) },
    });
    const record = await this.get(id);
    return record ? { record, changed: count === 1 } : undefined;
  }

  countPending(sessionId: string): Promise<number> {
    return this.prisma.approval.count({ where: { sessionId, status: 'pending' } });
  }

  /** Read on every gated call: beside Prisma, whose per-query CPU is larger than the read's (measured). */
  async findByCall(sessionId: string, callId: string): Promise<ApprovalRecord | undefined> {
    const [found] = await this.database.query<{ row: string | null }>(FIND_BY_CALL, [sessionId, callId]);
    if (!found?.row) return undefined;
    return approvalFromJson(JSON.parse(found.row) as ApprovalJson);
  }

  async listExpired(now: number): Promise<readonly ApprovalRecord[]> {
    const rows = await this.prisma.approval.findMany({
      where: { status: 'pending', expiresAt: { lte: new Date(now) } },
      orderBy: { expiresAt: 'asc' },
    });
    return rows.map(toRecord);
  }
}
