import type { ToolCallClaimResult, ToolCallClaimStore, ToolCallToClaim } from './tool-call-claim-store.js';
import type { InMemoryTurnLeaseStore } from './in-memory-turn-lease-store.js';
import type { TurnFence } from './turn-lease-store.js';

/** A {@link ToolCallClaimStore} in process memory, for tests; with `leases`, leased fences are checked. */
export class InMemoryToolCallClaimStore implements ToolCallClaimStore {
  private readonly claims = new Map<string, Map<string, string>>();

  constructor(private readonly leases?: InMemoryTurnLeaseStore) {}

  async claim(
    sessionId: string,
    _turnId: string,
    calls: readonly ToolCallToClaim[],
    fence: TurnFence,
  ): Promise<ToolCallClaimResult> {
    if (fence.leased && this.leases && !this.leases.holds(sessionId, fence.owner))
      return { held: false, claimed: new Set() };
    let session = this.claims.get(sessionId);
    if (session === undefined) this.claims.set(sessionId, (session = new Map()));
    const claimed = new Set<string>();
    for (const call of calls) {
      if (session.has(call.callId)) continue;
      session.set(call.callId, fence.owner);
      claimed.add(call.callId);
    }
    return { held: true, claimed };
  }

  async started(sessionId: string, callIds: readonly string[]): Promise<ReadonlySet<string>> {
    const session = this.claims.get(sessionId);
    return new Set(callIds.filter((id) => session?.has(id)));
  }

  async forget(sessionId: string): Promise<void> {
    this.claims.delete(sessionId);
  }
}
