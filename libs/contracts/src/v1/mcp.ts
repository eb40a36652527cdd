import { Type, type Static } from '@sinclair/typebox';
import { SandboxProfileSchema } from './sandbox.js';

/** An MCP server's name as configured (`registry/mcp-servers/*.json` or user config). */
export const McpServerNameSchema = Type.String({ pattern: '^[a-zA-Z0-9][a-zA-Z0-9_-]{0,47}$' });

/** Lifecycle states of one MCP server; `down` means it failed or crashed (see `lastError`). */
export const MCP_SERVER_STATES = ['stopped', 'starting', 'running', 'stopping', 'down'] as const;
/** One lifecycle state. */
export type McpServerState = (typeof MCP_SERVER_STATES)[number];
/** JSON Schema of {@link McpServerState}. */
export const McpServerStateSchema = Type.Union(MCP_SERVER_STATES.map((state) => Type.Literal(state)));

/** The transports Talon speaks to MCP servers. */
export const MCP_TRANSPORTS = ['stdio', 'streamable-http', 'sse'] as const;
/** One MCP transport. */
export type McpTransportType = (typeof MCP_TRANSPORTS)[number];

/** A server tool Talon will not offer, and why (e.g. its input schema is not valid JSON Schema). */
export const UnusableMcpToolSchema = Type.Object({
  server: Type.String(),
  tool: Type.String(),
  displayName: Type.String({ description: '`server.tool`' }),
  reason: Type.String(),
});
/** An unusable MCP tool. */
export type UnusableMcpTool = Static<typeof UnusableMcpToolSchema>;

/** One server as `mcp.start`, `mcp.stop` and `mcp.list` report it. */
export const McpServerStatusSchema = Type.Object({
  name: Type.String(),
  displayName: Type.String(),
  transport: Type.Union(MCP_TRANSPORTS.map((transport) => Type.Literal(transport))),
  /** Where its definition comes from: a deployment file, or `mcp.add` (shared through JetStream). */
  source: Type.Optional(Type.Union([Type.Literal('file'), Type.Literal('api')])),
  state: McpServerStateSchema,
  toolCount: Type.Integer({ minimum: 0 }),
  /** How many `notifications/resources/list_changed` the server sent since it started (lists are never cached). */
  resourceListChanges: Type.Optional(Type.Integer({ minimum: 0 })),
  /** The last failure (crash, failed start, failed health check), with stderr when there was some. */
  lastError: Type.Optional(Type.String()),
  /** The last stderr lines of a stdio server. */
  lastStderr: Type.Array(Type.String()),
  pid: Type.Optional(Type.Integer()),
  /** Automatic restarts since the server was configured. */
  restarts: Type.Integer({ minimum: 0 }),
  startedAt: Type.Optional(Type.String({ description: 'ISO-8601' })),
  lastUsedAt: Type.Optional(Type.String({ description: 'ISO-8601' })),
  /** When the next automatic restart is due, if one is scheduled. */
  nextRestartAt: Type.Optional(Type.String({ description: 'ISO-8601' })),
  /** A remote OAuth server waiting for a person: the URL to open, then finish with `mcp.authorize`. */
  authorizationUrl: Type.Optional(Type.String()),
  /** A stdio server's sandbox: the paths it may read and write, its network grant and limits. */
  sandbox: Type.Optional(SandboxProfileSchema),
});
/** A server's status. */
export type McpServerStatus = Static<typeof McpServerStatusSchema>;

/** A server's status plus its tool names (as the server spells them) and unusable tools. */
export const McpServerListingSchema = Type.Intersect([
  McpServerStatusSchema,
  Type.Object({ tools: Type.Array(Type.String()), unusableTools: Type.Array(UnusableMcpToolSchema) }),
]);
/** One entry of `mcp.list`. */
export type McpServerListing = Static<typeof McpServerListingSchema>;

/** Request of `mcp.start` and `mcp.stop`. */
export const McpServerRequestSchema = Type.Object(
  { server: McpServerNameSchema },
  { additionalProperties: false },
);
/** Names one server. */
export type McpServerRequest = Static<typeof McpServerRequestSchema>;

/** Reply of `mcp.list`. */
export const McpListReplySchema = Type.Object({ servers: Type.Array(McpServerListingSchema) });
/** Every configured server. */
export type McpListReply = Static<typeof McpListReplySchema>;

/** Request of `mcp.call`: a tool by its people-facing name `server.tool`. */
export const McpCallRequestSchema = Type.Object(
  {
    tool: Type.String({ pattern: '^[a-zA-Z0-9][a-zA-Z0-9_-]{0,47}\\..+$', description: '`server.tool`' }),
    arguments: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
/** A direct MCP call. */
export type McpCallRequest = Static<typeof McpCallRequestSchema>;

/** One content item of an MCP tool result as Talon passes it on; binary data is summarised by size. */
export const McpContentItemSchema = Type.Union([
  Type.Object({ type: Type.Literal('text'), text: Type.String() }),
  Type.Object({
    type: Type.Union([Type.Literal('image'), Type.Literal('audio')]),
    mimeType: Type.String(),
    dataBytes: Type.Integer({ minimum: 0 }),
    data: Type.Optional(Type.String({ description: 'base64, only when under the inline cap' })),
  }),
  Type.Object({
    type: Type.Literal('resource'),
    uri: Type.String(),
    mimeType: Type.Optional(Type.String()),
    text: Type.Optional(Type.String()),
    dataBytes: Type.Optional(Type.Integer({ minimum: 0 })),
    data: Type.Optional(Type.String()),
  }),
  Type.Object({
    type: Type.Literal('resource_link'),
    uri: Type.String(),
    name: Type.String(),
    mimeType: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
  }),
  Type.Object({ type: Type.Literal('unknown'), originalType: Type.String() }),
]);
/** One MCP content item. */
export type McpContentItem = Static<typeof McpContentItemSchema>;

/** An MCP tool's output (reply of `mcp.call`, and the `output` of an MCP tool's call result). */
export const McpToolOutputSchema = Type.Object({
  content: Type.Array(McpContentItemSchema),
  /** Every text item and embedded text resource joined with blank lines: what the model reads. */
  text: Type.String(),
  structuredContent: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** Always false in a successful reply: `isError` results become TOOL_FAILED errors. */
  isError: Type.Boolean(),
});
/** An MCP tool's output. */
export type McpToolOutput = Static<typeof McpToolOutputSchema>;

/** Request of `mcp.resources.list` and `mcp.prompts.list`. */
export const McpListPageRequestSchema = Type.Object(
  { server: McpServerNameSchema, cursor: Type.Optional(Type.String({ maxLength: 4096 })) },
  { additionalProperties: false },
);
/** A page request. */
export type McpListPageRequest = Static<typeof McpListPageRequestSchema>;

/** One resource a server offers. */
export const McpResourceSchema = Type.Object({
  uri: Type.String(),
  name: Type.String(),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  mimeType: Type.Optional(Type.String()),
  size: Type.Optional(Type.Number()),
});
/** A resource. */
export type McpResource = Static<typeof McpResourceSchema>;

/** Reply of `mcp.resources.list`. */
export const McpResourceListReplySchema = Type.Object({
  server: Type.String(),
  resources: Type.Array(McpResourceSchema),
  nextCursor: Type.Optional(Type.String()),
});
/** A page of resources. */
export type McpResourceListReply = Static<typeof McpResourceListReplySchema>;

/** Request of `mcp.resources.read` and of the `mcp_resource_read` tool. */
export const McpResourceReadRequestSchema = Type.Object(
  { server: McpServerNameSchema, uri: Type.String({ minLength: 1, maxLength: 4096 }) },
  { additionalProperties: false },
);
/** A resource read request. */
export type McpResourceReadRequest = Static<typeof McpResourceReadRequestSchema>;

/** Reply of `mcp.resources.read`: the contents as `resource` items (binary under the inline cap as base64). */
export const McpResourceReadReplySchema = Type.Object({
  server: Type.String(),
  uri: Type.String(),
  contents: Type.Array(McpContentItemSchema),
});
/** A read resource. */
export type McpResourceReadReply = Static<typeof McpResourceReadReplySchema>;

/** One prompt a server offers. */
export const McpPromptSchema = Type.Object({
  name: Type.String(),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  arguments: Type.Array(
    Type.Object({
      name: Type.String(),
      description: Type.Optional(Type.String()),
      required: Type.Boolean(),
    }),
  ),
});
/** A prompt. */
export type McpPrompt = Static<typeof McpPromptSchema>;

/** Reply of `mcp.prompts.list`. */
export const McpPromptListReplySchema = Type.Object({
  server: Type.String(),
  prompts: Type.Array(McpPromptSchema),
  nextCursor: Type.Optional(Type.String()),
});
/** A page of prompts. */
export type McpPromptListReply = Static<typeof McpPromptListReplySchema>;

/** Request of `mcp.prompts.get`. */
export const McpPromptGetRequestSchema = Type.Object(
  {
    server: McpServerNameSchema,
    name: Type.String({ minLength: 1, maxLength: 256 }),
    arguments: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 16384 }))),
  },
  { additionalProperties: false },
);
/** A prompt request. */
export type McpPromptGetRequest = Static<typeof McpPromptGetRequestSchema>;

/** Reply of `mcp.prompts.get`: the prompt's messages, content typed like tool content. */
export const McpPromptGetReplySchema = Type.Object({
  server: Type.String(),
  name: Type.String(),
  description: Type.Optional(Type.String()),
  messages: Type.Array(
    Type.Object({
      role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
      content: McpContentItemSchema,
    }),
  ),
});
/** A rendered prompt. */
export type McpPromptGetReply = Static<typeof McpPromptGetReplySchema>;
