import type { LlmMessage } from '@talon/llm';
import type { SessionStore, StoredMessage } from './session-store.js';

/** A {@link SessionStore} in process memory, for tests; share one instance to simulate a restart. */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, StoredMessage[]>();

  async append(sessionId: string, turnId: string, message: LlmMessage): Promise<StoredMessage> {
    let log = this.sessions.get(sessionId);
    if (log === undefined) this.sessions.set(sessionId, (log = []));
    const stored: StoredMessage = { sessionId, seq: log.length + 1, turnId, message, createdAt: Date.now() };
    log.push(stored);
    return stored;
  }

  async load(sessionId: string): Promise<readonly StoredMessage[]> {
    return this.sessions.get(sessionId) ?? [];
  }
}
