import type { LlmMessage } from '@talon/llm';
import { TurnLeaseLostError } from './errors/turn-lease-lost-error.js';
import type { InMemoryTurnLeaseStore } from './in-memory-turn-lease-store.js';
import type { SessionStore, StoredMessage } from './session-store.js';
import type { TurnFence } from './turn-lease-store.js';

/**
 * A {@link SessionStore} in process memory, for tests; share one instance to simulate a restart. With
 * `leases`, a write under a leased fence whose owner lost the lease is refused, as in the database.
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, StoredMessage[]>();

  constructor(private readonly leases?: InMemoryTurnLeaseStore) {}

  async append(
    sessionId: string,
    turnId: string,
    message: LlmMessage,
    fence?: TurnFence,
  ): Promise<StoredMessage> {
    if (fence?.leased && this.leases && !this.leases.holds(sessionId, fence.owner))
      throw new TurnLeaseLostError(sessionId, fence.owner);
    let log = this.sessions.get(sessionId);
    if (log === undefined) this.sessions.set(sessionId, (log = []));
    const stored: StoredMessage = { sessionId, seq: log.length + 1, turnId, message, createdAt: Date.now() };
    log.push(stored);
    return stored;
  }

  async closeTurn(
    sessionId: string,
    turnId: string,
    message: LlmMessage,
    fence: TurnFence,
  ): Promise<StoredMessage> {
    const stored = await this.append(sessionId, turnId, message, fence);
    if (fence.leased) await this.leases?.release(sessionId, fence.owner);
    return stored;
  }

  async load(sessionId: string): Promise<readonly StoredMessage[]> {
    return this.sessions.get(sessionId) ?? [];
  }

  async openTurn(
    sessionId: string,
    turnId: string,
    message: LlmMessage,
    fence?: TurnFence,
  ): Promise<{ history: readonly StoredMessage[]; appended: StoredMessage }> {
    const history = [...(await this.load(sessionId))];
    return { history, appended: await this.append(sessionId, turnId, message, fence) };
  }
}
