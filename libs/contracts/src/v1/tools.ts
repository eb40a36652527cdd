import { Type, type Static } from '@sinclair/typebox';
import { SandboxProfileSchema } from './sandbox.js';
import { TOOL_ACK_SUBJECT_PATTERN } from './subjects.js';

/** The 13 kinds of side effect a tool may declare. Policy grants and denies by effect. */
export const TOOL_EFFECTS = [
  'read_filesystem',
  'write_filesystem',
  'delete_filesystem',
  'network',
  'use_secret',
  'execute_code',
  'spawn_process',
  'dispatch_capability',
  'modify_extension',
  'modify_approval',
  'modify_budget',
  'external_write',
  'financial',
] as const;
/** One kind of side effect. */
export type ToolEffect = (typeof TOOL_EFFECTS)[number];
export const ToolEffectSchema = Type.Union(TOOL_EFFECTS.map((effect) => Type.Literal(effect)));

/** Where a tool runs: orchestrator-domain tools on tool-workers, container-domain tools on wasm-runners. */
export const TOOL_DOMAINS = ['orchestrator', 'container'] as const;
/** A tool's domain. */
export type ToolDomain = (typeof TOOL_DOMAINS)[number];
export const ToolDomainSchema = Type.Union(TOOL_DOMAINS.map((domain) => Type.Literal(domain)));

/** When a call needs a person's approval. */
export const APPROVAL_REQUIREMENTS = ['never', 'unless_auto_approved', 'always'] as const;
/** A tool's approval requirement. */
export type ApprovalRequirement = (typeof APPROVAL_REQUIREMENTS)[number];
export const ApprovalRequirementSchema = Type.Union(
  APPROVAL_REQUIREMENTS.map((value) => Type.Literal(value)),
);

/** Where a tool comes from; built-in names are protected from dynamic tools. */
export const TOOL_SOURCES = ['builtin', 'wasm', 'mcp', 'installed', 'built'] as const;
/** Origin of a tool. */
export type ToolSource = (typeof TOOL_SOURCES)[number];

/** A rate limit: at most `calls` in every `perMs` window. */
export const RateLimitSchema = Type.Object({
  calls: Type.Integer({ minimum: 1 }),
  perMs: Type.Integer({ minimum: 1 }),
});
/** A rate limit. */
export type RateLimit = Static<typeof RateLimitSchema>;

/** The longest a tool call may run: a tool's `timeoutMs` and a `tools.call`'s. */
export const MAX_TOOL_TIMEOUT_MS = 600_000;

/**
 * A tool as announced by a worker and listed by the catalog: data only, no code.
 * `name` is the LLM-facing name (`^[a-zA-Z0-9_-]{1,64}$`); `displayName` is what people read
 * (for an MCP tool `server.tool`).
 */
export const ToolDefinitionSchema = Type.Object({
  name: Type.String({ pattern: '^[a-zA-Z0-9_-]{1,64}$' }),
  displayName: Type.Optional(Type.String()),
  description: Type.String({ maxLength: 4096 }),
  parameters: Type.Record(Type.String(), Type.Unknown(), { description: 'JSON Schema of the parameters' }),
  effects: Type.Array(ToolEffectSchema),
  approval: ApprovalRequirementSchema,
  timeoutMs: Type.Integer({ minimum: 1, maximum: MAX_TOOL_TIMEOUT_MS }),
  domain: ToolDomainSchema,
  source: Type.Union(TOOL_SOURCES.map((value) => Type.Literal(value))),
  sensitiveParams: Type.Array(Type.String()),
  rateLimit: Type.Optional(RateLimitSchema),
  idempotent: Type.Boolean(),
  /** The sandbox the tool's process runs in (shell, stdio MCP tools): what it may read, write and reach. */
  sandbox: Type.Optional(SandboxProfileSchema),
  /**
   * Whether the tool's domain judges each call's approval from its params (the shell parses the command
   * line). `false`: `approval` is the whole answer, so nobody asks the domain. Absent (an older worker):
   * the domain is asked.
   */
  approvalByCall: Type.Optional(Type.Boolean()),
});
/** A tool definition on the wire. */
export type ToolDefinition = Static<typeof ToolDefinitionSchema>;

/** What a worker instance announces: its tools, its domain and its identity. */
export const ToolAnnouncementSchema = Type.Object({
  instanceId: Type.String(),
  service: Type.String(),
  domain: ToolDomainSchema,
  tools: Type.Array(ToolDefinitionSchema),
  /** How long the catalog may keep this announcement without a fresh one. */
  ttlMs: Type.Integer({ minimum: 100 }),
});
/** A worker's catalog announcement. */
export type ToolAnnouncement = Static<typeof ToolAnnouncementSchema>;

/** A request to run one tool on a worker. Params were validated by the orchestrator's pipeline. */
export const ToolCallRequestSchema = Type.Object({
  callId: Type.String(),
  tool: Type.String(),
  params: Type.Record(Type.String(), Type.Unknown()),
  timeoutMs: Type.Integer({ minimum: 1 }),
  /**
   * Where the worker acknowledges a call that runs longer than a moment: a message with only the
   * `talon-ack` header naming its instance, published on this subject (`talon.tools.v1.ack.<requester>.
   * <token>`), never on the reply subject, so every request gets exactly one reply (see `allowResponses`
   * in nats-permissions.ts). Only a caller that watches for lost workers sets it.
   */
  ack: Type.Optional(Type.String({ pattern: TOOL_ACK_SUBJECT_PATTERN })),
  /** Credentials granted to this call only (host-side injection; never shown to the model). */
  grants: Type.Optional(
    Type.Array(
      Type.Object({
        secretName: Type.String(),
        value: Type.String(),
        hostPatterns: Type.Array(Type.String()),
        location: Type.Object({
          kind: Type.Union([Type.Literal('header'), Type.Literal('query'), Type.Literal('bearer')]),
          name: Type.Optional(Type.String()),
        }),
      }),
    ),
  ),
  sessionId: Type.Optional(Type.String()),
});
/** A tool call as sent to a worker. */
export type ToolCallRequest = Static<typeof ToolCallRequestSchema>;

/**
 * The JetStream object store where a worker leaves a tool result too large for one NATS message (the
 * server's `max_payload`); the caller reads the object and deletes it, and the bucket's TTL removes what
 * a caller that died never read.
 */
export const TOOL_RESULT_BUCKET = 'talon_tool_results';

/** Where a tool result that did not fit in the reply waits: an object of {@link TOOL_RESULT_BUCKET}. */
export const ToolResultReferenceSchema = Type.Object({
  bucket: Type.String(),
  name: Type.String(),
  /** Size of the JSON-encoded output. */
  bytes: Type.Integer({ minimum: 0 }),
});
/** A reference to a stored tool result. */
export type ToolResultReference = Static<typeof ToolResultReferenceSchema>;

/** The result of one tool call as returned by a worker (before the orchestrator wraps it for the model). */
export const ToolCallResultSchema = Type.Object({
  /** The tool's output; `null` when {@link ToolCallResult.outputRef} holds it instead. */
  output: Type.Unknown(),
  /** Set when the output was too large for the reply: the JSON-encoded output is in the object store. */
  outputRef: Type.Optional(ToolResultReferenceSchema),
  /** Worker-side warnings (e.g. a truncated body). */
  warnings: Type.Optional(Type.Array(Type.String())),
  durationMs: Type.Number(),
  instanceId: Type.String(),
});
/** A worker's tool result. */
export type ToolCallResult = Static<typeof ToolCallResultSchema>;

/** Request on `talon.tools.v1.held.<instance>`: which of these calls does the instance still hold? */
export const ToolCallCheckRequestSchema = Type.Object({
  callIds: Type.Array(Type.String(), { maxItems: 10_000 }),
});
/** A failover probe. */
export type ToolCallCheckRequest = Static<typeof ToolCallCheckRequestSchema>;

/** Reply of the failover probe: the listed calls the instance is still running or queueing. */
export const ToolCallCheckReplySchema = Type.Object({
  instanceId: Type.String(),
  held: Type.Array(Type.String()),
});
/** The probe's answer. */
export type ToolCallCheckReply = Static<typeof ToolCallCheckReplySchema>;

/** Published on `talon.tools.v1.cancel.<domain>` when the caller of a call gave up; the holder aborts it. */
export const ToolCallCancelSchema = Type.Object({
  callId: Type.String({ minLength: 1, maxLength: 200 }),
  /** Why, for the worker's log: `cancelled`, `deadline` or `worker_lost`. */
  reason: Type.Optional(Type.String({ maxLength: 64 })),
  /** Only this instance acts on it (a cancel of a lost worker's copy must not stop the retry elsewhere). */
  instanceId: Type.Optional(Type.String({ maxLength: 256 })),
});
/** A cancel of one call. */
export type ToolCallCancel = Static<typeof ToolCallCancelSchema>;

/** Published by a worker instance when it leaves, so its tools drop out at once. */
export const ToolWithdrawalSchema = Type.Object({ instanceId: Type.String() });
/** A worker's withdrawal. */
export type ToolWithdrawal = Static<typeof ToolWithdrawalSchema>;

/** A tool as listed by `tools.list` / `tools.info`: its definition and who runs it. */
export const CatalogToolSchema = Type.Object({
  definition: ToolDefinitionSchema,
  location: Type.Union([Type.Literal('local'), Type.Literal('remote')]),
  instances: Type.Array(Type.String()),
});
/** A catalog listing row. */
export type CatalogTool = Static<typeof CatalogToolSchema>;

/** Request of `tools.list`. */
export const ToolsListRequestSchema = Type.Object({
  domain: Type.Optional(ToolDomainSchema),
  source: Type.Optional(Type.Union(TOOL_SOURCES.map((value) => Type.Literal(value)))),
});
/** Request of `tools.list`. */
export type ToolsListRequest = Static<typeof ToolsListRequestSchema>;

/** Reply of `tools.list`. */
export const ToolsListReplySchema = Type.Object({
  version: Type.Integer({ description: 'increases whenever the visible tool set changes' }),
  tools: Type.Array(CatalogToolSchema),
  conflicts: Type.Array(
    Type.Object({ instanceId: Type.String(), name: Type.String(), reason: Type.String() }),
  ),
});
/** Reply of `tools.list`. */
export type ToolsListReply = Static<typeof ToolsListReplySchema>;

/** Request of `tools.info`. */
export const ToolsInfoRequestSchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
/** Request of `tools.info`. */
export type ToolsInfoRequest = Static<typeof ToolsInfoRequestSchema>;

/** Request of `tools.call`: run one tool through the whole pipeline. */
export const ToolsCallRequestSchema = Type.Object(
  {
    tool: Type.String({ minLength: 1, maxLength: 128 }),
    params: Type.Optional(Type.Unknown()),
    /** A session id (a UUID, from `sessions.create`): the call counts against it and is audited with it. */
    sessionId: Type.Optional(Type.String({ format: 'uuid' })),
    callId: Type.Optional(Type.String({ maxLength: 128 })),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TOOL_TIMEOUT_MS })),
    /**
     * `operator` (default): the caller is the person who would approve. `agent`: the session's policy
     * applies as for a model (deny → POLICY_DENIED, ask → APPROVAL_REQUIRED with `details.approvalId`);
     * needs `sessionId`. MCP clients are served this way.
     */
    policy: Type.Optional(Type.Union([Type.Literal('operator'), Type.Literal('agent')])),
  },
  { additionalProperties: false },
);
/** Request of `tools.call`. */
export type ToolsCallRequest = Static<typeof ToolsCallRequestSchema>;

/** Reply of `tools.call`. */
/**
 * An image or audio part of a tool's output, kept typed for the model (a provider image input where the
 * provider takes one) and for MCP clients (image/audio content), never as base64 inside the text.
 */
export const ToolMediaSchema = Type.Object({
  type: Type.Union([Type.Literal('image'), Type.Literal('audio')]),
  mimeType: Type.String(),
  /** base64 */
  data: Type.String(),
  /** sha256 (hex) of the bytes: the artifact reference the text placeholder names. */
  sha256: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
});
/** An image or audio part of a tool's output. */
export type ToolMedia = Static<typeof ToolMediaSchema>;

export const ToolsCallReplySchema = Type.Object({
  callId: Type.String(),
  tool: Type.String(),
  output: Type.Unknown(),
  /** The sanitized, truncated text wrapped as `<tool_output>` for a model. */
  text: Type.String(),
  /** Images and audio of the output, within the media cap; the text names each with a placeholder. */
  media: Type.Optional(Type.Array(ToolMediaSchema)),
  truncated: Type.Boolean(),
  redactions: Type.Array(Type.String(), { description: 'kinds of secrets redacted from the output' }),
  durationMs: Type.Number(),
  attempts: Type.Integer(),
  instanceId: Type.Optional(Type.String()),
});
/** Reply of `tools.call`. */
export type ToolsCallReply = Static<typeof ToolsCallReplySchema>;

/** Request on `talon.tools.v1.approval.<domain>`: what approval does this call need? */
export const ToolApprovalRequestSchema = Type.Object(
  {
    tool: Type.String({ minLength: 1, maxLength: 128 }),
    params: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);
/** Request of the tool approval subject. */
export type ToolApprovalRequest = Static<typeof ToolApprovalRequestSchema>;

/**
 * A tool's own verdict on one call's approval, evaluated by the domain that runs it (a shell command
 * line parsed into the programs it runs): the requirement, why, and what a person should see.
 */
export const ToolApprovalAssessmentSchema = Type.Object({
  approval: ApprovalRequirementSchema,
  /** Why approval is needed (empty when it is not). */
  reasons: Type.Array(Type.String()),
  /** The programs the call runs, when the tool knows them (`shell`). */
  programs: Type.Optional(Type.Array(Type.String())),
});
/** Reply of the tool approval subject. */
export type ToolApprovalAssessment = Static<typeof ToolApprovalAssessmentSchema>;
