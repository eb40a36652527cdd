import { TurnLeaseLostError } from './errors/turn-lease-lost-error.js';
import { DEFAULT_TURN_LEASE_MS, leaseSchedule, type LeaseSchedule } from './lease-schedule.js';
import type { TurnFence, TurnLeaseStore } from './turn-lease-store.js';

/** Options of a {@link TurnLeaseKeeper}. */
export interface TurnLeaseKeeperOptions {
  /** This process's identity in the lease rows; unique per process (a restarted one is another owner). */
  owner: string;
  /** Default {@link DEFAULT_TURN_LEASE_MS}. */
  leaseMs?: number;
  /** Told when a lease is taken over from an owner that stopped renewing it. */
  onTakeover?: (sessionId: string, previousOwner: string) => void;
  /** Told when this process loses a lease it held. */
  onLost?: (sessionId: string) => void;
  /** A monotonic clock in ms (only to measure how long renewals have been failing). Default `performance.now`. */
  monotonicNow?: () => number;
}

/** A turn lease this process holds. */
export interface HeldTurnLease {
  readonly sessionId: string;
  /** Pass to every write of the turn, so a lost lease writes nothing. */
  readonly fence: TurnFence;
  /** Aborts (with a {@link TurnLeaseLostError}) when the lease is lost: the turn must stop. */
  readonly signal: AbortSignal;
  readonly lost: boolean;
  /** Ends the lease (the turn is over); a lost lease is left to its new owner. */
  release(): Promise<void>;
  /**
   * Runs the turn's last write, which ends the lease itself (`SessionStore.closeTurn`): renewals stop
   * first, and once it has succeeded {@link release} has nothing left to do.
   */
  closeWith<T>(write: (fence: TurnFence) => Promise<T>): Promise<T>;
}

interface Holding {
  readonly controller: AbortController;
  /** When a renewal last confirmed the lease (monotonic ms). */
  confirmedAt: number;
}

/**
 * Holds the turn leases of this orchestrator: takes one per running turn, renews all of them in one
 * statement every third of the lease, and aborts a turn whose lease is gone: taken over (a renewal no
 * longer finds it) or unconfirmable (the database has not answered for a whole lease, so another owner
 * may already have it). Expiry is judged by the database clock; see {@link leaseSchedule}.
 */
export class TurnLeaseKeeper {
  readonly owner: string;
  readonly schedule: LeaseSchedule;
  private readonly holdings = new Map<string, Holding>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;

  constructor(
    private readonly store: TurnLeaseStore,
    private readonly options: TurnLeaseKeeperOptions,
  ) {
    this.owner = options.owner;
    this.schedule = leaseSchedule(options.leaseMs ?? DEFAULT_TURN_LEASE_MS);
    this.now = options.monotonicNow ?? (() => performance.now());
  }

  /** Takes the session's lease for a turn; `undefined` while another owner holds it. */
  async hold(sessionId: string, turnId: string): Promise<HeldTurnLease | undefined> {
    const acquisition = await this.store.acquire(sessionId, turnId, this.owner, this.schedule.leaseMs);
    if (!acquisition.acquired) return undefined;
    if (acquisition.previousOwner !== undefined && acquisition.previousOwner !== this.owner)
      this.options.onTakeover?.(sessionId, acquisition.previousOwner);
    const holding: Holding = { controller: new AbortController(), confirmedAt: this.now() };
    this.holdings.get(sessionId)?.controller.abort(new TurnLeaseLostError(sessionId, this.owner));
    this.holdings.set(sessionId, holding);
    this.startRenewing();
    const signal = holding.controller.signal;
    const fence: TurnFence = { owner: this.owner, leased: true };
    // closeWith took the lease off renewal (closing); its write then ended the lease in the store (closed).
    let closing = false;
    let closed = false;
    return {
      sessionId,
      fence,
      signal,
      get lost() {
        return signal.aborted;
      },
      release: async () => {
        if (closed) return;
        if (this.holdings.get(sessionId) === holding) {
          this.holdings.delete(sessionId);
          this.stopRenewingWhenIdle();
        } else if (!closing) return;
        if (!signal.aborted) await this.store.release(sessionId, this.owner);
      },
      closeWith: async (write) => {
        // A renewal after the write would miss the deleted row and report the lease lost.
        if (this.holdings.get(sessionId) === holding) {
          closing = true;
          this.holdings.delete(sessionId);
          this.stopRenewingWhenIdle();
        }
        const result = await write(fence);
        closed = true;
        return result;
      },
    };
  }

  /** A fenced write found the lease gone: the turn must stop now rather than at the next renewal. */
  markLost(sessionId: string): void {
    this.lose(sessionId);
  }

  /** Leases held now. */
  get held(): number {
    return this.holdings.size;
  }

  /**
   * At shutdown: stops every local turn from writing and lets its lease expire now, so another
   * orchestrator takes the waiting turns over within a sweep instead of a whole lease later.
   */
  async handOver(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const sessionId of [...this.holdings.keys()]) this.lose(sessionId);
    await this.store.expireAll(this.owner);
  }

  /** One renewal of every held lease (run by the timer; exposed for tests). */
  async renewNow(): Promise<void> {
    if (this.renewing) return;
    const sessionIds = [...this.holdings.keys()];
    if (sessionIds.length === 0) return;
    this.renewing = true;
    const asked = this.now();
    try {
      const still = await this.store.renew(this.owner, sessionIds, this.schedule.leaseMs);
      for (const sessionId of sessionIds) {
        const holding = this.holdings.get(sessionId);
        if (holding === undefined) continue;
        if (still.has(sessionId)) holding.confirmedAt = asked;
        else this.lose(sessionId);
      }
    } catch {
      // The database did not answer: keep going while the lease may still be ours, stop once it cannot be.
      for (const sessionId of sessionIds) {
        const holding = this.holdings.get(sessionId);
        if (holding && this.now() - holding.confirmedAt >= this.schedule.leaseMs) this.lose(sessionId);
      }
    } finally {
      this.renewing = false;
    }
  }

  private lose(sessionId: string): void {
    const holding = this.holdings.get(sessionId);
    if (holding === undefined) return;
    this.holdings.delete(sessionId);
    this.stopRenewingWhenIdle();
    if (holding.controller.signal.aborted) return;
    holding.controller.abort(new TurnLeaseLostError(sessionId, this.owner));
    this.options.onLost?.(sessionId);
  }

  private startRenewing(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.renewNow(), this.schedule.renewEveryMs);
    this.timer.unref();
  }

  private stopRenewingWhenIdle(): void {
    if (this.holdings.size > 0 || this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
