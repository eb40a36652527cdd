import { Type, type Static } from '@sinclair/typebox';

/**
 * What a token may do. Each scope includes the ones before it: `read` < `agent` < `operator`.
 * - `read`: status, lists, info, `audit.verify`.
 * - `agent`: chat, sessions, approvals of its own sessions, `tools.call` with `policy: "agent"`.
 * - `operator`: everything, including operator `tools.call`, secrets, installs, MCP control and tokens.
 */
export const API_SCOPES = ['read', 'agent', 'operator'] as const;
/** One of the {@link API_SCOPES}. */
export type ApiScope = (typeof API_SCOPES)[number];

/** Schema of a scope value. */
export const ApiScopeSchema = Type.Union(API_SCOPES.map((scope) => Type.Literal(scope)));

/** True when a token of scope `held` may call a method that needs `needed`. */
export function scopeAllows(held: ApiScope, needed: ApiScope): boolean {
  return API_SCOPES.indexOf(held) >= API_SCOPES.indexOf(needed);
}

/** A scope as it travels in requests (typed alias for schemas that embed it). */
export type ApiScopeValue = Static<typeof ApiScopeSchema>;
