import type { ApiScope } from '@talon/contracts';

/** A token as stored: metadata and the sha256 of the token, never the token. */
export interface StoredApiToken {
  id: string;
  name: string;
  scope: ApiScope;
  hash: string;
  createdAt: Date;
  createdBy: string;
  lastUsedAt?: Date;
  expiresAt?: Date;
  revokedAt?: Date;
}

/** Where tokens live (the orchestrator's database). */
export interface TokenStore {
  findByHash(hash: string): Promise<StoredApiToken | undefined>;
  /** Inserts a token; resolves false when a token with the same hash exists already. */
  insert(token: StoredApiToken): Promise<boolean>;
  list(options: { includeRevoked: boolean }): Promise<StoredApiToken[]>;
  /** Marks a token revoked; resolves the updated token, or undefined when there is no such id. */
  revoke(id: string, at: Date): Promise<StoredApiToken | undefined>;
  /** Records a use; called at most once a minute per token. */
  touch(id: string, at: Date): Promise<void>;
  /** Whether any token that is neither revoked nor expired has the operator scope. */
  hasActiveOperator(now: Date): Promise<boolean>;
}
