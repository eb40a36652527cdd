import {
  computeAuditHash,
  GENESIS_HASH,
  verifyAuditChain,
  type AuditRecord,
  type AuditVerification,
} from '@talon/audit';
import type { PrismaClient } from '@talon/persistence';

/** One advisory-lock key for the whole chain, so orchestrators append one at a time. */
const AUDIT_CHAIN_LOCK = 7_300_001;
/** Records wait at most this long before their batch is written; a busy orchestrator writes one transaction per window. */
const FLUSH_DELAY_MS = 25;
/** A batch this large is written at once. */
const FLUSH_BATCH_SIZE = 200;

/** The fields a caller provides; time and chain links are added here. */
export type AuditEntry = Omit<
  AuditRecord,
  'at' | 'sessionId' | 'callId' | 'tool' | 'argsHash' | 'durationMs' | 'data'
> &
  Partial<Pick<AuditRecord, 'sessionId' | 'callId' | 'tool' | 'argsHash' | 'durationMs' | 'data'>>;

/**
 * The append-only, hash-chained audit log. Appends are queued and written in batches off the hot path
 * (a tool call does not wait for the database; a batch is written every 25 ms at most); `flush()` waits for everything queued, and runs on
 * shutdown. Each batch takes a transaction-scoped advisory lock, reads the chain head and links every
 * new row to the one before, so several orchestrators keep one chain.
 */
export class AuditLog {
  private queue: AuditRecord[] = [];
  private writing: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  append(entry: AuditEntry): void {
    this.queue.push({
      at: new Date().toISOString(),
      sessionId: null,
      callId: null,
      tool: null,
      argsHash: null,
      durationMs: null,
      data: {},
      ...entry,
    });
    if (this.queue.length >= FLUSH_BATCH_SIZE) {
      void this.flush();
    } else if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
    }
  }

  /** Resolves once every record appended so far is written. */
  flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(() => this.write(batch)).catch((error) => this.onError(error));
    }
    return this.writing;
  }

  /** Walks the whole chain and names the first edited or deleted row. */
  async verify(): Promise<AuditVerification> {
    await this.flush();
    const rows = await this.prisma.auditEvent.findMany({ orderBy: { id: 'asc' } });
    return verifyAuditChain(
      rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        kind: row.kind,
        actor: row.actor,
        sessionId: row.sessionId,
        callId: row.callId,
        tool: row.tool,
        argsHash: row.argsHash,
        outcome: row.outcome,
        durationMs: row.durationMs,
        data: row.data as Record<string, unknown>,
        prevHash: row.prevHash,
        hash: row.hash,
      })),
    );
  }

  private async write(batch: AuditRecord[]): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`;
      const head = await tx.auditEvent.findFirst({ orderBy: { id: 'desc' }, select: { hash: true } });
      let prevHash = head?.hash ?? GENESIS_HASH;
      const rows = batch.map((record) => {
        const hash = computeAuditHash(prevHash, record);
        const row = { ...record, prevHash, hash };
        prevHash = hash;
        return row;
      });
      // One statement for the batch; rows keep their order, so ids follow the chain.
      await tx.$executeRaw`
        INSERT INTO audit_event (at, kind, actor, session_id, call_id, tool, args_hash, outcome, duration_ms, data, prev_hash, hash)
        SELECT (r->>'at')::timestamptz, r->>'kind', r->>'actor', (r->>'sessionId')::uuid, r->>'callId', r->>'tool', r->>'argsHash',
               r->>'outcome', (r->>'durationMs')::int, r->'data', r->>'prevHash', r->>'hash'
        FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) WITH ORDINALITY AS item(r, position)
        ORDER BY position`;
    });
  }
}
