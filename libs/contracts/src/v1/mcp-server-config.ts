import { Type, type Static } from '@sinclair/typebox';
import { McpServerNameSchema } from './mcp.js';
import { ApprovalRequirementSchema, ToolEffectSchema } from './tools.js';

const StringMap = Type.Record(Type.String(), Type.String());

/** A server run as a child process speaking JSON-RPC over stdin/stdout. */
export const StdioTransportConfigSchema = Type.Object(
  {
    type: Type.Literal('stdio'),
    command: Type.String({ minLength: 1 }),
    args: Type.Optional(Type.Array(Type.String())),
    env: Type.Optional(StringMap),
    cwd: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

/**
 * The sandbox of a stdio server, as written in a definition: paths it may read or write (besides the
 * read-only system and its own command), hosts it may reach through Talon's egress proxy (none: no network
 * at all), and limits that replace the defaults.
 */
export const McpSandboxConfigSchema = Type.Object(
  {
    read_paths: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 64 })),
    write_paths: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 64 })),
    network_hosts: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 64 })),
    limits: Type.Optional(
      Type.Object(
        {
          cpu_seconds: Type.Optional(Type.Integer({ minimum: 1 })),
          address_space_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
          max_processes: Type.Optional(Type.Integer({ minimum: 1 })),
          max_file_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
          max_open_files: Type.Optional(Type.Integer({ minimum: 1 })),
          tmp_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** A remote server reached over streamable HTTP (or the older HTTP+SSE transport). */
const remoteTransport = <T extends 'streamable-http' | 'sse'>(type: T) =>
  Type.Object(
    {
      type: Type.Literal(type),
      url: Type.String({ pattern: '^https?://' }),
      headers: Type.Optional(StringMap),
    },
    { additionalProperties: false },
  );
/** A remote server over streamable HTTP. */
export const StreamableHttpTransportConfigSchema = remoteTransport('streamable-http');
/** A remote server over the older HTTP+SSE transport. */
export const SseTransportConfigSchema = remoteTransport('sse');

/** How Talon authenticates to a remote server. Secrets are named, never inlined. */
export const McpAuthConfigSchema = Type.Union([
  Type.Object({ type: Type.Literal('none') }, { additionalProperties: false }),
  Type.Object(
    { type: Type.Literal('bearer'), secret: Type.String({ minLength: 1 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('oauth'),
      client_name: Type.Optional(Type.String()),
      scopes: Type.Optional(Type.Array(Type.String())),
    },
    { additionalProperties: false },
  ),
]);

/**
 * One MCP server as written in `registry/mcp-servers/*.json` or in user config (snake_case, like every
 * registry file), and the request of `mcp.add`. `${NAME}` in command, args, env, cwd, url and header values is expanded by the loader.
 */
export const McpServerConfigSchema = Type.Object(
  {
    name: McpServerNameSchema,
    display_name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String({ maxLength: 2048 })),
    keywords: Type.Optional(Type.Array(Type.String())),
    transport: Type.Union([
      StdioTransportConfigSchema,
      StreamableHttpTransportConfigSchema,
      SseTransportConfigSchema,
    ]),
    auth: Type.Optional(McpAuthConfigSchema),
    /** Stdio servers only: what the sandboxed server may touch. Default: nothing beyond the system, no network. */
    sandbox: Type.Optional(McpSandboxConfigSchema),
    effects: Type.Optional(Type.Array(ToolEffectSchema)),
    approval: Type.Optional(ApprovalRequirementSchema),
    call_timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000 })),
    connect_timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000 })),
    idle_stop_ms: Type.Optional(Type.Integer({ minimum: 0 })),
    health_interval_ms: Type.Optional(Type.Integer({ minimum: 0 })),
    restart: Type.Optional(
      Type.Object(
        {
          max_restarts: Type.Optional(Type.Integer({ minimum: 0 })),
          window_ms: Type.Optional(Type.Integer({ minimum: 1 })),
          initial_delay_ms: Type.Optional(Type.Integer({ minimum: 0 })),
          max_delay_ms: Type.Optional(Type.Integer({ minimum: 0 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
/** A server definition as written in a file or sent to `mcp.add`. */
export type McpServerConfig = Static<typeof McpServerConfigSchema>;

/** Where a server's definition comes from: a deployment file (registry or `TALON_MCP_CONFIG`) or `mcp.add`. */
export const MCP_DEFINITION_SOURCES = ['file', 'api'] as const;
/** One definition source. */
export type McpDefinitionSource = (typeof MCP_DEFINITION_SOURCES)[number];
/** JSON Schema of {@link McpDefinitionSource}. */
export const McpDefinitionSourceSchema = Type.Union(
  MCP_DEFINITION_SOURCES.map((source) => Type.Literal(source)),
);

/** Request of `mcp.add`: one server definition, added or replacing an earlier `mcp.add` of the same name. */
export const McpAddRequestSchema = Type.Object(
  { definition: McpServerConfigSchema },
  { additionalProperties: false },
);
/** An `mcp.add` request. */
export type McpAddRequest = Static<typeof McpAddRequestSchema>;

/** Reply of `mcp.add` and `mcp.remove`: the definition as it is now shared (or was, before a removal). */
export const McpDefinitionReplySchema = Type.Object({
  name: McpServerNameSchema,
  source: Type.Literal('api'),
  transport: Type.Union([Type.Literal('stdio'), Type.Literal('streamable-http'), Type.Literal('sse')]),
  /** `added` (new name), `updated` (replaced an earlier `mcp.add`) or `removed`. */
  change: Type.Union([Type.Literal('added'), Type.Literal('updated'), Type.Literal('removed')]),
  /** When it was added (ISO-8601). */
  addedAt: Type.String(),
});
/** An `mcp.add` / `mcp.remove` reply. */
export type McpDefinitionReply = Static<typeof McpDefinitionReplySchema>;
