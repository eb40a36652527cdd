import {
  statusOfDecision,
  type ApprovalDecision,
  type ApprovalRecord,
  type ApprovalResolveOutcome,
  type ApprovalStore,
} from './approval-store.js';

/** An {@link ApprovalStore} in process memory, for tests; share one instance to simulate a restart. */
export class InMemoryApprovalStore implements ApprovalStore {
  private readonly records = new Map<string, ApprovalRecord>();

  async create(record: ApprovalRecord): Promise<void> {
    if (this.records.has(record.id)) throw new Error(`approval ${record.id} already exists`);
    this.records.set(record.id, record);
  }

  async createWithinCap(record: ApprovalRecord, maxPending: number): Promise<boolean> {
    // Nothing awaits between the count and the insert, so in one process this is atomic.
    let pending = 0;
    for (const existing of this.records.values())
      if (existing.sessionId === record.sessionId && existing.status === 'pending') pending++;
    if (pending >= maxPending) return false;
    if (this.records.has(record.id)) throw new Error(`approval ${record.id} already exists`);
    this.records.set(record.id, record);
    return true;
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    return this.records.get(id);
  }

  async listPending(sessionId?: string): Promise<readonly ApprovalRecord[]> {
    return [...this.records.values()].filter(
      (record) => record.status === 'pending' && (sessionId === undefined || record.sessionId === sessionId),
    );
  }

  async resolve(
    id: string,
    decision: ApprovalDecision,
    resolvedBy: string,
    resolvedAt: number,
  ): Promise<ApprovalResolveOutcome | undefined> {
    const record = this.records.get(id);
    if (record === undefined) return undefined;
    if (record.status !== 'pending') return { record, changed: false };
    const resolved: ApprovalRecord = {
      ...record,
      status: statusOfDecision(decision),
      decision,
      resolvedBy,
      resolvedAt,
    };
    this.records.set(id, resolved);
    return { record: resolved, changed: true };
  }

  async countPending(sessionId: string): Promise<number> {
    return (await this.listPending(sessionId)).length;
  }

  async findByCall(sessionId: string, callId: string): Promise<ApprovalRecord | undefined> {
    let latest: ApprovalRecord | undefined;
    for (const record of this.records.values()) {
      if (
        record.sessionId === sessionId &&
        record.callId === callId &&
        (latest === undefined || record.createdAt >= latest.createdAt)
      )
        latest = record;
    }
    return latest;
  }

  async listExpired(now: number): Promise<readonly ApprovalRecord[]> {
    return [...this.records.values()].filter(
      (record) => record.status === 'pending' && record.expiresAt <= now,
    );
  }
}
