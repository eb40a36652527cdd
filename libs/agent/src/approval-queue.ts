import { randomUUID } from 'node:crypto';
import { ApprovalAlreadyResolvedError } from './errors/approval-already-resolved-error.js';
import { ApprovalNotFoundError } from './errors/approval-not-found-error.js';
import { TooManyPendingApprovalsError } from './errors/too-many-pending-approvals-error.js';
import { AgentConfigError } from './errors/agent-config-error.js';
import type { ApprovalRecord, ApprovalStore, PersonApprovalDecision } from './approval-store.js';
import type { GrantStore } from './grant-store.js';

/** Default time a person has to decide before the call counts as denied: 5 minutes. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;
/** Default cap on approvals waiting at once in one session. */
export const DEFAULT_MAX_PENDING_APPROVALS = 5;
/** Default interval at which waiters re-read the store (another orchestrator may have resolved). */
export const DEFAULT_APPROVAL_POLL_MS = 1_000;

/** Options of the {@link ApprovalQueue}; every field is optional. */
export interface ApprovalQueueOptions {
  timeoutMs?: number;
  maxPendingPerSession?: number;
  /** 0 turns polling off (rely on {@link ApprovalQueue.onResolved}). */
  pollIntervalMs?: number;
  /** Epoch milliseconds; replaceable in tests. */
  now?: () => number;
}

/** What a call asking for approval provides. */
export interface ApprovalRequest {
  sessionId: string;
  turnId?: string;
  callId: string;
  tool: string;
  params: Readonly<Record<string, unknown>>;
  reason: string;
  /** Overrides the queue's timeout for this approval. */
  timeoutMs?: number;
}

/** Node's timer limit; a longer deadline is waited for in several timers. */
const MAX_TIMER_MS = 2_147_483_647;

interface Waiter {
  settle(record: ApprovalRecord): void;
}

/**
 * Pending approvals over an {@link ApprovalStore}: request (at most N pending per session), wait with a
 * timeout (recorded as `expired`, counted as denied), resolve. `approve_always` also stores an allow
 * grant for the tool in that session, so later calls of it run without asking. Waiting works for an
 * approval created before a restart: the store holds the truth and the deadline is the stored
 * `expiresAt`; waiters wake on a local resolve, on {@link onResolved} (the integrator calls it when an
 * event says another orchestrator resolved one) or on the next poll.
 */
export class ApprovalQueue {
  readonly timeoutMs: number;
  readonly maxPendingPerSession: number;
  private readonly pollIntervalMs: number;
  private readonly now: () => number;
  private readonly waiters = new Map<string, Set<Waiter>>();
  private pollTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: ApprovalStore,
    private readonly grants: GrantStore,
    options: ApprovalQueueOptions = {},
  ) {
    this.timeoutMs = positive(options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS, 'timeoutMs');
    this.maxPendingPerSession = positive(
      options.maxPendingPerSession ?? DEFAULT_MAX_PENDING_APPROVALS,
      'maxPendingPerSession',
    );
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_APPROVAL_POLL_MS;
    if (!(this.pollIntervalMs >= 0)) throw new AgentConfigError('pollIntervalMs must be 0 or more');
    this.now = options.now ?? Date.now;
  }

  /** Persists a pending approval; throws {@link TooManyPendingApprovalsError} at the session's cap. */
  async request(request: ApprovalRequest): Promise<ApprovalRecord> {
    const createdAt = this.now();
    const record: ApprovalRecord = {
      id: randomUUID(),
      sessionId: request.sessionId,
      ...(request.turnId === undefined ? {} : { turnId: request.turnId }),
      callId: request.callId,
      tool: request.tool,
      params: request.params,
      reason: request.reason,
      status: 'pending',
      createdAt,
      expiresAt: createdAt + (request.timeoutMs ?? this.timeoutMs),
    };
    if (!(await this.store.createWithinCap(record, this.maxPendingPerSession)))
      throw new TooManyPendingApprovalsError(request.sessionId, this.maxPendingPerSession);
    return record;
  }

  /**
   * Settles a pending approval. `approve_always` first stores the session's allow grant for the tool.
   * Throws {@link ApprovalNotFoundError} or {@link ApprovalAlreadyResolvedError}.
   */
  async resolve(id: string, decision: PersonApprovalDecision, resolvedBy: string): Promise<ApprovalRecord> {
    const current = await this.store.get(id);
    if (current === undefined) throw new ApprovalNotFoundError(id);
    if (current.status !== 'pending') throw new ApprovalAlreadyResolvedError(current);
    const outcome = await this.store.resolve(id, decision, resolvedBy, this.now());
    if (outcome === undefined) throw new ApprovalNotFoundError(id);
    if (!outcome.changed) throw new ApprovalAlreadyResolvedError(outcome.record);
    try {
      // The grant goes in before the waiter wakes, so the next call of the same batch already sees it.
      if (decision === 'approve_always')
        await this.grants.setToolGrant(current.sessionId, current.tool, 'allow');
    } finally {
      this.wake(outcome.record);
    }
    return outcome.record;
  }

  /**
   * Waits until the approval is settled; past its `expiresAt` it is recorded as expired. Resolves with
   * the final record (approved when `status === 'approved'`). Aborting rejects with `signal.reason`
   * and leaves the approval pending, so a resumed turn can wait for it again.
   */
  async waitFor(id: string, options: { signal?: AbortSignal } = {}): Promise<ApprovalRecord> {
    const record = await this.store.get(id);
    if (record === undefined) throw new ApprovalNotFoundError(id);
    if (record.status !== 'pending') return record;
    const { signal } = options;
    signal?.throwIfAborted();
    return new Promise<ApprovalRecord>((resolve, reject) => {
      let expiry: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(expiry);
        signal?.removeEventListener('abort', onAbort);
        this.removeWaiter(id, waiter);
      };
      const waiter: Waiter = {
        settle: (settled) => {
          finish();
          resolve(settled);
        },
      };
      const onAbort = () => {
        finish();
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.addWaiter(id, waiter);
      // A timer may fire a little before the wall clock reaches the deadline (and a long one is capped at
      // Node's limit): arm it again until the deadline has passed, so a wait never outlives its expiry.
      const arm = () => {
        expiry = setTimeout(
          () => {
            if (this.now() >= record.expiresAt) void this.expire(id).catch(reject);
            else arm();
          },
          Math.min(MAX_TIMER_MS, Math.max(1, record.expiresAt - this.now())),
        );
      };
      arm();
    });
  }

  /** Tells the queue an approval changed elsewhere (another orchestrator); waiters re-read the store. */
  async onResolved(id: string): Promise<void> {
    if (!this.waiters.has(id)) return;
    const record = await this.store.get(id);
    if (record !== undefined && record.status !== 'pending') this.wake(record);
  }

  /** Marks every overdue pending approval expired (run at start and now and then); returns them. */
  async expireDue(): Promise<readonly ApprovalRecord[]> {
    const expired: ApprovalRecord[] = [];
    for (const record of await this.store.listExpired(this.now())) {
      const outcome = await this.store.resolve(record.id, 'expire', 'system:timeout', this.now());
      if (outcome?.changed) expired.push(outcome.record);
      if (outcome) this.wake(outcome.record);
    }
    return expired;
  }

  listPending(sessionId?: string): Promise<readonly ApprovalRecord[]> {
    return this.store.listPending(sessionId);
  }

  get(id: string): Promise<ApprovalRecord | undefined> {
    return this.store.get(id);
  }

  /** The latest approval asked for a tool call of the session. */
  findByCall(sessionId: string, callId: string): Promise<ApprovalRecord | undefined> {
    return this.store.findByCall(sessionId, callId);
  }

  /** How many waiters are parked (for tests and health). */
  get waiting(): number {
    let count = 0;
    for (const set of this.waiters.values()) count += set.size;
    return count;
  }

  private async expire(id: string): Promise<void> {
    const outcome = await this.store.resolve(id, 'expire', 'system:timeout', this.now());
    if (outcome === undefined) throw new ApprovalNotFoundError(id);
    this.wake(outcome.record);
  }

  private wake(record: ApprovalRecord): void {
    const set = this.waiters.get(record.id);
    if (set === undefined) return;
    for (const waiter of [...set]) waiter.settle(record);
  }

  private addWaiter(id: string, waiter: Waiter): void {
    let set = this.waiters.get(id);
    if (set === undefined) this.waiters.set(id, (set = new Set()));
    set.add(waiter);
    if (this.pollTimer === undefined && this.pollIntervalMs > 0) {
      this.pollTimer = setInterval(() => void this.poll(), this.pollIntervalMs);
      this.pollTimer.unref();
    }
  }

  private removeWaiter(id: string, waiter: Waiter): void {
    const set = this.waiters.get(id);
    set?.delete(waiter);
    if (set?.size === 0) this.waiters.delete(id);
    if (this.waiters.size === 0 && this.pollTimer !== undefined) {
      clearInterval(this.pollTimer);
      this.pollTimer = undefined;
    }
  }

  private async poll(): Promise<void> {
    for (const id of [...this.waiters.keys()]) {
      // A store hiccup during a poll is not fatal: the next poll or the deadline settles the wait.
      await this.onResolved(id).catch(() => undefined);
    }
  }
}

function positive(value: number, field: string): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new AgentConfigError(`${field} must be a positive number (got ${value})`, { field });
  return value;
}
