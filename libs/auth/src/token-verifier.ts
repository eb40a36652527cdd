import type { ApiScope } from '@talon/contracts';
import { hashApiToken } from './api-token.js';
import { UnauthenticatedError } from './errors/unauthenticated-error.js';
import type { Principal } from './principal.js';
import type { TokenStore } from './token-store.js';

/** Options of {@link TokenVerifier}. */
export interface TokenVerifierOptions {
  /**
   * How long a verification result is reused. Revocation on another orchestrator takes effect within
   * this time. Default 500 ms.
   */
  cacheMs?: number;
  /** Most tokens remembered at once (verified or refused). Default 10,000. */
  maxCached?: number;
  /** Least time between two `lastUsedAt` updates of one token. Default 60 s. */
  touchIntervalMs?: number;
  now?: () => number;
}

export const DEFAULT_TOKEN_CACHE_MS = 500;

interface CacheEntry {
  until: number;
  principal?: Principal;
  refusal?: string;
}

/**
 * Checks bearer tokens against the store, keeping each answer for a short time so that checking a token
 * costs a map lookup on the hot path; expiry is checked on every call. One token is looked up once at a
 * time: the calls that find its answer expired while a lookup runs wait for that lookup (at concurrency 64
 * each expiry otherwise sent dozens of the same query).
 */
export class TokenVerifier {
  private readonly cache = new Map<string, CacheEntry & { expiresAt?: number }>();
  private readonly lookups = new Map<string, Promise<CacheEntry & { expiresAt?: number }>>();
  private readonly touched = new Map<string, number>();
  private readonly cacheMs: number;
  private readonly maxCached: number;
  private readonly touchIntervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: TokenStore,
    options: TokenVerifierOptions = {},
  ) {
    this.cacheMs = options.cacheMs ?? DEFAULT_TOKEN_CACHE_MS;
    this.maxCached = options.maxCached ?? 10_000;
    this.touchIntervalMs = options.touchIntervalMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** The principal of a token, or an {@link UnauthenticatedError} that says why not. */
  async verify(token: string | undefined): Promise<Principal> {
    if (!token) throw new UnauthenticatedError('The call carries no token.');
    const now = this.now();
    let entry = this.cache.get(token);
    if (!entry || entry.until <= now) entry = await this.sharedLookUp(token, now);
    if (entry.refusal) throw new UnauthenticatedError(entry.refusal);
    if (entry.expiresAt !== undefined && entry.expiresAt <= now)
      throw new UnauthenticatedError('The token has expired.');
    this.noteUse(entry.principal!.id, now);
    return entry.principal!;
  }

  /** Forgets every cached answer (after a revocation on this instance). */
  forget(): void {
    this.cache.clear();
    this.lookups.clear();
  }

  /** The lookup of `token` already running, or a new one whose answer is cached. */
  private sharedLookUp(token: string, now: number): Promise<CacheEntry & { expiresAt?: number }> {
    const running = this.lookups.get(token);
    if (running) return running;
    const lookup = this.lookUp(token, now).then(
      (entry) => {
        // Not cached when `forget` came meanwhile: the answer may predate the revocation.
        if (this.lookups.get(token) !== lookup) return entry;
        this.lookups.delete(token);
        if (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value as string);
        this.cache.set(token, entry);
        return entry;
      },
      (error: unknown) => {
        if (this.lookups.get(token) === lookup) this.lookups.delete(token);
        throw error;
      },
    );
    this.lookups.set(token, lookup);
    return lookup;
  }

  private async lookUp(token: string, now: number): Promise<CacheEntry & { expiresAt?: number }> {
    const until = now + this.cacheMs;
    const stored = await this.store.findByHash(hashApiToken(token));
    if (!stored) return { until, refusal: 'The token is not known to this Talon.' };
    if (stored.revokedAt) return { until, refusal: 'The token has been revoked.' };
    const expiresAt = stored.expiresAt?.getTime();
    return {
      until,
      expiresAt,
      principal: { id: stored.id, name: stored.name, scope: stored.scope as ApiScope },
    };
  }

  private noteUse(id: string, now: number): void {
    const last = this.touched.get(id);
    if (last !== undefined && now - last < this.touchIntervalMs) return;
    this.touched.set(id, now);
    this.store.touch(id, new Date(now)).catch(() => this.touched.delete(id));
  }
}
