import { Type, type Static } from '@sinclair/typebox';

/*
 * Requests of the WebAssembly tool lifecycle methods. Each method runs the matching extension tool of the
 * wasm-runner through the dispatcher (the `tools.call` path) and answers with that tool's output.
 */

const ToolPackageName = Type.String({
  pattern: '^[a-z0-9][a-z0-9_-]{0,63}$',
  description: 'registry tool name',
});

/** Request of `tools.search` (runs `tool_search`). */
export const ToolsSearchRequestSchema = Type.Object(
  { query: Type.String({ maxLength: 200 }), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })) },
  { additionalProperties: false },
);
/** Request of `tools.search`. */
export type ToolsSearchRequest = Static<typeof ToolsSearchRequestSchema>;

/** Request of `tools.install` (runs `tool_install`): a tool name or a bundle name. */
export const ToolsInstallRequestSchema = Type.Union([
  Type.Object({ name: ToolPackageName }, { additionalProperties: false }),
  Type.Object({ bundle: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
]);
/** Request of `tools.install`. */
export type ToolsInstallRequest = Static<typeof ToolsInstallRequestSchema>;

/** Request of `tools.upgrade`, `tools.remove` and `extensions.info`: one tool by name. */
export const ToolPackageRequestSchema = Type.Object(
  { name: ToolPackageName },
  { additionalProperties: false },
);
/** Request naming one installed or registry tool. */
export type ToolPackageRequest = Static<typeof ToolPackageRequestSchema>;

/** Request of `tools.upgrade`: a tool, and for a built tool optionally the approved version to move to (rollback). */
export const ToolsUpgradeRequestSchema = Type.Object(
  { name: ToolPackageName, version: Type.Optional(Type.String({ pattern: '^\\d+\\.0\\.0$' })) },
  { additionalProperties: false },
);
/** Request of `tools.upgrade`. */
export type ToolsUpgradeRequest = Static<typeof ToolsUpgradeRequestSchema>;

/** Request of `tools.installed` (runs `tool_list`): no fields. */
export const ToolsInstalledRequestSchema = Type.Object({}, { additionalProperties: false });
/** Request of `tools.installed`. */
export type ToolsInstalledRequest = Static<typeof ToolsInstalledRequestSchema>;

/**
 * Asked by the orchestrator before a model's call to an installed WebAssembly tool that declares the
 * `use_secret` effect: which credentials the tool's capabilities declare, so only those secrets are granted,
 * and only when the operator's host patterns for the secret cover the hosts the tool would send it to.
 * Answered by the wasm-runners (queue group `wasm-runners`) in a Talon envelope.
 */
export const WASM_DECLARED_SECRETS_SUBJECT = 'talon.wasm.v1.container.declared-secrets';

/** Request on {@link WASM_DECLARED_SECRETS_SUBJECT}. */
export const WasmDeclaredSecretsRequestSchema = Type.Object(
  { tool: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
/** Request on {@link WASM_DECLARED_SECRETS_SUBJECT}. */
export type WasmDeclaredSecretsRequest = Static<typeof WasmDeclaredSecretsRequestSchema>;

/**
 * Reply on {@link WASM_DECLARED_SECRETS_SUBJECT}: the tool's credentials (secret name and the host patterns the
 * runner injects it for); empty when the tool is not installed or declares none.
 */
export const WasmDeclaredSecretsReplySchema = Type.Object({
  credentials: Type.Array(
    Type.Object({ secretName: Type.String(), hostPatterns: Type.Array(Type.String()) }),
  ),
});
/** Reply on {@link WASM_DECLARED_SECRETS_SUBJECT}. */
export type WasmDeclaredSecretsReply = Static<typeof WasmDeclaredSecretsReplySchema>;
