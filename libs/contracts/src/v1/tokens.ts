import { Type, type Static } from '@sinclair/typebox';
import { ApiScopeSchema } from './auth.js';

/** Pattern of a token id: `tok_` and 16 hex digits. Ids are safe to show and log; tokens are not. */
export const TOKEN_ID_PATTERN = '^tok_[0-9a-f]{16}$';

/** A token as `tokens.list` shows it: never the token itself, nor its hash. */
export const ApiTokenInfoSchema = Type.Object({
  id: Type.String({ pattern: TOKEN_ID_PATTERN }),
  name: Type.String(),
  scope: ApiScopeSchema,
  createdAt: Type.String(),
  createdBy: Type.String(),
  lastUsedAt: Type.Optional(Type.String()),
  expiresAt: Type.Optional(Type.String()),
  revokedAt: Type.Optional(Type.String()),
});
/** One token's metadata. */
export type ApiTokenInfo = Static<typeof ApiTokenInfoSchema>;

/** Request of `tokens.create`. */
export const TokensCreateRequestSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9 ._:@-]*$' }),
    scope: ApiScopeSchema,
    /** Lifetime in seconds; none means the token lives until revoked. */
    expiresInSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 * 365 * 24 * 3600 })),
  },
  { additionalProperties: false },
);
/** Request of `tokens.create`. */
export type TokensCreateRequest = Static<typeof TokensCreateRequestSchema>;

/** Reply of `tokens.create`: the only time the token is shown. */
export const TokensCreateReplySchema = Type.Intersect([
  ApiTokenInfoSchema,
  Type.Object({ token: Type.String() }),
]);
/** Reply of `tokens.create`. */
export type TokensCreateReply = Static<typeof TokensCreateReplySchema>;

/** Request of `tokens.list`. */
export const TokensListRequestSchema = Type.Object(
  { includeRevoked: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
/** Request of `tokens.list`. */
export type TokensListRequest = Static<typeof TokensListRequestSchema>;

/** Request of `tokens.revoke`. */
export const TokensRevokeRequestSchema = Type.Object(
  { id: Type.String({ pattern: TOKEN_ID_PATTERN }) },
  { additionalProperties: false },
);
/** Request of `tokens.revoke`. */
export type TokensRevokeRequest = Static<typeof TokensRevokeRequestSchema>;
