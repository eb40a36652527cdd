import { Injectable, type OnModuleInit } from '@nestjs/common';
import { generateApiToken, type StoredApiToken } from '@talon/auth';
import {
  ERROR_CODES,
  TokensCreateRequestSchema,
  TokensListRequestSchema,
  TokensRevokeRequestSchema,
  type ApiTokenInfo,
  type TokensCreateReply,
  type TokensCreateRequest,
  type TokensListRequest,
  type TokensRevokeRequest,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext } from '../api/api-method.js';
import { ApiAuthenticator } from './api-authenticator.js';

function toInfo(token: StoredApiToken): ApiTokenInfo {
  return {
    id: token.id,
    name: token.name,
    scope: token.scope,
    createdAt: token.createdAt.toISOString(),
    createdBy: token.createdBy,
    ...(token.lastUsedAt ? { lastUsedAt: token.lastUsedAt.toISOString() } : {}),
    ...(token.expiresAt ? { expiresAt: token.expiresAt.toISOString() } : {}),
    ...(token.revokedAt ? { revokedAt: token.revokedAt.toISOString() } : {}),
  };
}

/** `tokens.create`, `tokens.list`, `tokens.revoke` (operator). */
@Injectable()
export class TokensApi implements OnModuleInit {
  constructor(
    private readonly router: ApiRouter,
    private readonly authenticator: ApiAuthenticator,
  ) {}

  onModuleInit(): void {
    const store = this.authenticator.store;
    this.router.register({
      name: 'tokens.create',
      scope: 'operator',
      description:
        'Creates an API token with a name, a scope (read, agent, operator) and an optional lifetime. The token is in this reply only; it is stored hashed.',
      request: TokensCreateRequestSchema,
      handle: async (request: TokensCreateRequest, context: ApiCallContext): Promise<TokensCreateReply> => {
        const generated = generateApiToken();
        const now = new Date();
        const stored: StoredApiToken = {
          id: generated.id,
          name: request.name,
          scope: request.scope,
          hash: generated.hash,
          createdAt: now,
          createdBy: context.principal?.id ?? 'unknown',
          ...(request.expiresInSeconds
            ? { expiresAt: new Date(now.getTime() + request.expiresInSeconds * 1000) }
            : {}),
        };
        await store.insert(stored);
        return { ...toInfo(stored), token: generated.token };
      },
    });
    this.router.register({
      name: 'tokens.list',
      scope: 'operator',
      description: 'API tokens with name, scope, creation, last use and expiry; never the tokens themselves.',
      request: TokensListRequestSchema,
      handle: async (request: TokensListRequest) => ({
        tokens: (await store.list({ includeRevoked: request.includeRevoked ?? false })).map(toInfo),
      }),
    });
    this.router.register({
      name: 'tokens.revoke',
      scope: 'operator',
      description:
        'Revokes a token by id; every orchestrator refuses it within a second. Revoking twice is harmless.',
      request: TokensRevokeRequestSchema,
      handle: async (request: TokensRevokeRequest): Promise<ApiTokenInfo> => {
        const revoked = await store.revoke(request.id, new Date());
        if (!revoked)
          throw new TalonError(ERROR_CODES.NOT_FOUND, `No token ${request.id}; see tokens.list.`, {
            details: { id: request.id },
          });
        this.authenticator.forgetCached();
        return toInfo(revoked);
      },
    });
  }
}
