import { Type, type Static } from '@sinclair/typebox';
import { McpServerNameSchema } from './mcp.js';

/**
 * MCP credentials between tool-workers and the orchestrator. Secrets stay encrypted in the orchestrator's
 * database; a tool-worker asks for one value at a time on `talon.mcp.v1.credentials.<operation>` (answered by
 * the orchestrators' queue group), and only for keys a configured MCP server definition references: the
 * bearer `auth.secret` names (read-only) and the `mcp/oauth/<server>/…` entries of OAuth servers.
 */
export const MCP_SECRETS_OPERATIONS = ['get', 'set', 'delete'] as const;
/** One MCP secrets operation. */
export type McpSecretsOperation = (typeof MCP_SECRETS_OPERATIONS)[number];

/**
 * The subject of one MCP credentials operation, e.g. `talon.mcp.v1.credentials.get`. Only tool-workers may
 * request it and only orchestrators answer it (see `NATS_PERMISSIONS`); `talon.secrets.v1.>` stays
 * orchestrator-only.
 */
export function mcpSecretsSubject(operation: McpSecretsOperation): string {
  return `talon.mcp.v1.credentials.${operation}`;
}

/** Request of every MCP secrets operation; `value` only for `set`. */
export const McpSecretsRequestSchema = Type.Object(
  {
    /** A bearer secret name from a server definition, or `mcp/oauth/<server>/<item>`. */
    name: Type.String({ minLength: 1, maxLength: 256 }),
    value: Type.Optional(Type.String({ minLength: 1, maxLength: 64 * 1024 })),
  },
  { additionalProperties: false },
);
/** One MCP secrets request. */
export type McpSecretsRequest = Static<typeof McpSecretsRequestSchema>;

/** Reply of `get` (no `value`: not set); `set` and `delete` answer `{}`. */
export const McpSecretsReplySchema = Type.Object({ value: Type.Optional(Type.String()) });
/** One MCP secrets reply. */
export type McpSecretsReply = Static<typeof McpSecretsReplySchema>;

/** Scatter subject every tool-worker answers to finish a pending OAuth authorization of a remote server. */
export const MCP_AUTHORIZE_SUBJECT = 'talon.mcp.v1.orchestrator.authorize';

/**
 * Request of `mcp.authorize` (and of {@link MCP_AUTHORIZE_SUBJECT}): the `code` and `state` query
 * parameters the authorization server put on Talon's redirect URL after a person approved access.
 */
export const McpAuthorizeRequestSchema = Type.Object(
  {
    server: McpServerNameSchema,
    code: Type.String({ minLength: 1, maxLength: 4096 }),
    state: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);
/** Finishes one OAuth authorization. */
export type McpAuthorizeRequest = Static<typeof McpAuthorizeRequestSchema>;
