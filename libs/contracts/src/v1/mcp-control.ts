import { Type, type Static } from '@sinclair/typebox';
import { McpServerListingSchema, McpServerStateSchema } from './mcp.js';
import { ToolDomainSchema, type ToolDomain } from './tools.js';

/**
 * MCP control between the orchestrator and the processes that run MCP servers: stdio servers live in the
 * wasm-runner (domain `container`, one replica answers through its queue group), remote servers in every
 * tool-worker (domain `orchestrator`, each replica connects on its own, so control is a scatter without a
 * queue group and the orchestrator merges the replies).
 */
export const MCP_CONTROL_OPERATIONS = ['start', 'stop', 'list'] as const;
/** Read-only queries answered by the instance that runs the server (its reply is the query's own reply type). */
export const MCP_QUERY_OPERATIONS = [
  'resources.list',
  'resources.read',
  'prompts.list',
  'prompts.get',
] as const;
/** One control operation or query. */
export type McpControlOperation =
  (typeof MCP_CONTROL_OPERATIONS)[number] | (typeof MCP_QUERY_OPERATIONS)[number];
/** One query operation. */
export type McpQueryOperation = (typeof MCP_QUERY_OPERATIONS)[number];

/** The subject of one control operation in one domain, e.g. `talon.mcp.v1.container.start`. */
export function mcpControlSubject(domain: ToolDomain, operation: McpControlOperation): string {
  return `talon.mcp.v1.${domain}.${operation}`;
}

/** Whether a domain's control subjects are answered by every instance (scatter) or by one (queue group). */
export const MCP_CONTROL_SCATTER: Readonly<Record<ToolDomain, boolean>> = {
  container: false,
  orchestrator: true,
};

/** What one instance answers to `start`, `stop` (its server's listing) and `list` (every server it runs). */
export const McpInstanceReplySchema = Type.Object({
  instanceId: Type.String(),
  domain: ToolDomainSchema,
  servers: Type.Array(McpServerListingSchema),
});
/** One instance's control reply. */
export type McpInstanceReply = Static<typeof McpInstanceReplySchema>;

/** One instance's view of a server, inside a merged {@link McpServerView}. */
export const McpServerInstanceSchema = Type.Object({
  instanceId: Type.String(),
  state: McpServerStateSchema,
  lastError: Type.Optional(Type.String()),
});
/** One instance's state of a server. */
export type McpServerInstance = Static<typeof McpServerInstanceSchema>;

/**
 * A server as `mcp.start`, `mcp.stop` and `mcp.list` report it: the listing of the instance that knows it
 * best (running first), plus the domain and every instance's state (tool-workers each run their own).
 */
export const McpServerViewSchema = Type.Intersect([
  McpServerListingSchema,
  Type.Object({ domain: ToolDomainSchema, instances: Type.Array(McpServerInstanceSchema) }),
]);
/** One server across instances. */
export type McpServerView = Static<typeof McpServerViewSchema>;

/** Reply of `mcp.list`. */
export const McpViewListReplySchema = Type.Object({ servers: Type.Array(McpServerViewSchema) });
/** Every configured server in every domain. */
export type McpViewListReply = Static<typeof McpViewListReplySchema>;
