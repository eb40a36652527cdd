import type { TurnLeaseAcquisition, TurnLeaseStore } from './turn-lease-store.js';

interface Lease {
  turnId: string;
  owner: string;
  expiresAt: number;
}

/**
 * A {@link TurnLeaseStore} in process memory, for tests. `now` stands for the database clock (one clock
 * for every owner, as in the real store); advance it to expire leases.
 */
export class InMemoryTurnLeaseStore implements TurnLeaseStore {
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly now: () => number = Date.now) {}

  async acquire(
    sessionId: string,
    turnId: string,
    owner: string,
    leaseMs: number,
  ): Promise<TurnLeaseAcquisition> {
    const current = this.leases.get(sessionId);
    if (current && current.owner !== owner && current.expiresAt >= this.now()) return { acquired: false };
    this.leases.set(sessionId, { turnId, owner, expiresAt: this.now() + leaseMs });
    return { acquired: true, ...(current ? { previousOwner: current.owner } : {}) };
  }

  async renew(owner: string, sessionIds: readonly string[], leaseMs: number): Promise<ReadonlySet<string>> {
    const held = new Set<string>();
    for (const sessionId of sessionIds) {
      const lease = this.leases.get(sessionId);
      if (lease?.owner !== owner) continue;
      lease.expiresAt = this.now() + leaseMs;
      held.add(sessionId);
    }
    return held;
  }

  async release(sessionId: string, owner: string): Promise<void> {
    if (this.leases.get(sessionId)?.owner === owner) this.leases.delete(sessionId);
  }

  async expireAll(owner: string): Promise<number> {
    let count = 0;
    for (const lease of this.leases.values())
      if (lease.owner === owner) {
        lease.expiresAt = this.now() - 1;
        count++;
      }
    return count;
  }

  async listExpired(limit: number): Promise<readonly string[]> {
    return [...this.leases.entries()]
      .filter(([, lease]) => lease.expiresAt < this.now())
      .sort((a, b) => a[1].expiresAt - b[1].expiresAt)
      .slice(0, limit)
      .map(([sessionId]) => sessionId);
  }

  /** Who holds the session's lease (expired or not), for assertions. */
  ownerOf(sessionId: string): string | undefined {
    return this.leases.get(sessionId)?.owner;
  }

  /** Whether `owner` holds a live lease of the session (what a fenced write checks). */
  holds(sessionId: string, owner: string): boolean {
    return this.leases.get(sessionId)?.owner === owner;
  }
}
