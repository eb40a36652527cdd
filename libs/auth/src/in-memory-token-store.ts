import type { StoredApiToken, TokenStore } from './token-store.js';

/** A {@link TokenStore} in memory, for tests and embedded tools. */
export class InMemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, StoredApiToken>();

  async findByHash(hash: string): Promise<StoredApiToken | undefined> {
    return [...this.tokens.values()].find((token) => token.hash === hash);
  }

  async insert(token: StoredApiToken): Promise<boolean> {
    if ([...this.tokens.values()].some((existing) => existing.hash === token.hash)) return false;
    this.tokens.set(token.id, { ...token });
    return true;
  }

  async list(options: { includeRevoked: boolean }): Promise<StoredApiToken[]> {
    return [...this.tokens.values()].filter((token) => options.includeRevoked || !token.revokedAt);
  }

  async revoke(id: string, at: Date): Promise<StoredApiToken | undefined> {
    const token = this.tokens.get(id);
    if (!token) return undefined;
    token.revokedAt ??= at;
    return { ...token };
  }

  async touch(id: string, at: Date): Promise<void> {
    const token = this.tokens.get(id);
    if (token) token.lastUsedAt = at;
  }

  async hasActiveOperator(now: Date): Promise<boolean> {
    return [...this.tokens.values()].some(
      (token) =>
        token.scope === 'operator' && !token.revokedAt && (!token.expiresAt || token.expiresAt > now),
    );
  }
}
