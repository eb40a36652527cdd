/** How a person (or the clock) settles an approval. `expire` is the timeout, recorded as expired. */
export const APPROVAL_DECISIONS = {
  approve: 'approve',
  deny: 'deny',
  approveAlways: 'approve_always',
  expire: 'expire',
} as const;
/** One of {@link APPROVAL_DECISIONS}. */
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[keyof typeof APPROVAL_DECISIONS];
/** What a person may answer (the clock alone expires). */
export type PersonApprovalDecision = Exclude<ApprovalDecision, 'expire'>;

/** The state of an approval. */
export const APPROVAL_STATUSES = {
  pending: 'pending',
  approved: 'approved',
  denied: 'denied',
  expired: 'expired',
} as const;
/** One of {@link APPROVAL_STATUSES}. */
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[keyof typeof APPROVAL_STATUSES];

/** A request for a person's approval of one tool call. Times are epoch milliseconds. */
export interface ApprovalRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly turnId?: string;
  /** The model's tool call id, so a resumed turn finds the approval of each pending call. */
  readonly callId: string;
  readonly tool: string;
  /** Params with sensitive values redacted, for the person deciding. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Why the policy asks. */
  readonly reason: string;
  readonly status: ApprovalStatus;
  readonly decision?: ApprovalDecision;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly resolvedAt?: number;
  readonly resolvedBy?: string;
}

/** What {@link ApprovalStore.resolve} did. */
export interface ApprovalResolveOutcome {
  /** The record after the call (the earlier resolution if it was already settled). */
  readonly record: ApprovalRecord;
  /** False when the approval was no longer pending, so nothing changed. */
  readonly changed: boolean;
}

/**
 * Where approvals are persisted; the store holds the truth, so a restarted orchestrator (or another
 * one) sees the same state. `resolve` must be a compare-and-set on `status = pending` so two
 * resolutions racing (a person and the timeout) settle exactly once.
 */
export interface ApprovalStore {
  create(record: ApprovalRecord): Promise<void>;
  /**
   * Creates the record unless its session already has `maxPending` pending approvals; false when at the
   * cap. Atomic: two requests racing (on two orchestrators) can never both pass a cap of one.
   */
  createWithinCap(record: ApprovalRecord, maxPending: number): Promise<boolean>;
  get(id: string): Promise<ApprovalRecord | undefined>;
  /** Pending approvals, oldest first, of one session or of all. */
  listPending(sessionId?: string): Promise<readonly ApprovalRecord[]>;
  /** `undefined` when no approval has that id. */
  resolve(
    id: string,
    decision: ApprovalDecision,
    resolvedBy: string,
    resolvedAt: number,
  ): Promise<ApprovalResolveOutcome | undefined>;
  countPending(sessionId: string): Promise<number>;
  /** The latest approval asked for this tool call, whatever its status (a resumed turn looks it up). */
  findByCall(sessionId: string, callId: string): Promise<ApprovalRecord | undefined>;
  /** Pending approvals whose `expiresAt` is at or before `now`. */
  listExpired(now: number): Promise<readonly ApprovalRecord[]>;
}

/** The status a decision leads to. */
export function statusOfDecision(decision: ApprovalDecision): ApprovalStatus {
  if (decision === 'approve' || decision === 'approve_always') return 'approved';
  return decision === 'deny' ? 'denied' : 'expired';
}
