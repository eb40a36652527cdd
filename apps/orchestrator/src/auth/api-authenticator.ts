import { Inject, Injectable } from '@nestjs/common';
import { TokenVerifier, type Principal } from '@talon/auth';
import type { Database } from '@talon/persistence';
import { DATABASE, ORCHESTRATOR_CONFIG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import { PrismaTokenStore } from './prisma-token-store.js';

/** Every call is an operator call when authentication is switched off (`TALON_AUTH=off`). */
const ANONYMOUS_OPERATOR: Principal = {
  id: 'anonymous',
  name: 'anonymous (TALON_AUTH=off)',
  scope: 'operator',
};

/** Turns the token a call carries (any surface) into its principal. */
@Injectable()
export class ApiAuthenticator {
  readonly store: PrismaTokenStore;
  private readonly verifier: TokenVerifier;
  private readonly enabled: boolean;

  constructor(@Inject(DATABASE) database: Database, @Inject(ORCHESTRATOR_CONFIG) config: OrchestratorConfig) {
    this.store = new PrismaTokenStore(database.prisma);
    this.verifier = new TokenVerifier(this.store, { cacheMs: config.auth.tokenCacheMs });
    this.enabled = config.auth.enabled;
  }

  authenticate(token: string | undefined): Promise<Principal> {
    if (!this.enabled) return Promise.resolve(ANONYMOUS_OPERATOR);
    return this.verifier.verify(token);
  }

  /** Drops cached verifications, so a revocation made here applies at once on this instance. */
  forgetCached(): void {
    this.verifier.forget();
  }
}

/** The token of an `Authorization: Bearer <token>` header (HTTP) or `authorization` metadata (gRPC). */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(value ?? '');
  return match?.[1];
}
