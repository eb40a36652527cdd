import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool as McpToolInfo,
} from '@modelcontextprotocol/sdk/types.js';
import {
  ERROR_CODES,
  type McpContentItem,
  type ToolDefinition,
  type ToolMedia,
  type ToolsCallReply,
} from '@talon/contracts';
import { isMcpToolOutput } from './mcp-model-content.js';
import { TalonError } from '@talon/errors';

/** The live catalog Talon serves: the definitions the caller may see, and a change feed. */
export interface TalonToolCatalog {
  list(): Promise<readonly ToolDefinition[]> | readonly ToolDefinition[];
  /** Registers a listener for catalog changes; returns the unsubscribe function. */
  onChange?(listener: () => void): () => void;
}

/** What the call function receives besides name and arguments. */
export interface TalonMcpCallContext {
  /** Aborted when the MCP client cancels the request or goes away. */
  signal: AbortSignal;
  /** The MCP session id (streamable HTTP), if any. */
  mcpSessionId?: string;
}

/**
 * Runs one tool for an MCP client. The integrator binds it to the orchestrator's dispatcher, so the
 * same policy, approval and safety pipeline applies; a call needing approval throws APPROVAL_REQUIRED.
 */
export type TalonToolCall = (
  toolName: string,
  args: Record<string, unknown>,
  context: TalonMcpCallContext,
) => Promise<unknown>;

/** Options shared by the HTTP and stdio surfaces. */
export interface TalonMcpServerOptions {
  catalog: TalonToolCatalog;
  call: TalonToolCall;
  serverInfo?: { name: string; version: string };
  instructions?: string;
}

const DEFAULT_SERVER_INFO = { name: 'talon', version: '0.1.0' };

/** A Talon tool definition as an MCP tool; annotations describe Talon's policy, they do not relax it. */
export function toMcpTool(definition: ToolDefinition): McpToolInfo {
  const parameters = definition.parameters as Record<string, unknown>;
  return {
    name: definition.name,
    ...(definition.displayName ? { title: definition.displayName } : {}),
    description: definition.description,
    inputSchema: { ...parameters, type: 'object' } as McpToolInfo['inputSchema'],
    annotations: {
      readOnlyHint: definition.effects.length === 0,
      destructiveHint: definition.approval === 'always' || definition.effects.includes('delete_filesystem'),
      idempotentHint: definition.idempotent,
      openWorldHint: definition.effects.includes('network'),
    },
  };
}

/**
 * A tool result as Talon's MCP server returns it when the output has more than text: the model-facing text,
 * images and audio as typed content, resource links and embedded resources, and structured content.
 */
export interface TalonMcpToolResult {
  readonly kind: 'talon-mcp-tool-result';
  text: string;
  media?: readonly ToolMedia[];
  resources?: readonly McpContentItem[];
  structuredContent?: Record<string, unknown>;
}

function isTalonMcpToolResult(value: unknown): value is TalonMcpToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'talon-mcp-tool-result'
  );
}

/**
 * A tool's output as MCP content: a {@link TalonMcpToolResult} keeps its types (image/audio content with their
 * data, `resource_link` and `resource` items, `structuredContent`), strings are text, anything else is pretty
 * JSON text.
 */
export function toMcpResult(output: unknown): CallToolResult {
  if (isTalonMcpToolResult(output)) {
    const content: CallToolResult['content'] = [{ type: 'text', text: output.text }];
    for (const item of output.media ?? [])
      content.push({ type: item.type, data: item.data, mimeType: item.mimeType });
    for (const item of output.resources ?? []) {
      if (item.type === 'resource_link')
        content.push({
          type: 'resource_link',
          uri: item.uri,
          name: item.name,
          ...(item.mimeType ? { mimeType: item.mimeType } : {}),
          ...(item.description ? { description: item.description } : {}),
        });
      else if (item.type === 'resource' && item.text !== undefined)
        content.push({
          type: 'resource',
          resource: { uri: item.uri, text: item.text, ...(item.mimeType ? { mimeType: item.mimeType } : {}) },
        });
      else if (item.type === 'resource' && item.data !== undefined)
        content.push({
          type: 'resource',
          resource: { uri: item.uri, blob: item.data, ...(item.mimeType ? { mimeType: item.mimeType } : {}) },
        });
    }
    return {
      content,
      ...(output.structuredContent ? { structuredContent: output.structuredContent } : {}),
    };
  }
  const text = typeof output === 'string' ? output : (JSON.stringify(output, null, 2) ?? 'null');
  return { content: [{ type: 'text', text }] };
}

/**
 * A reply as MCP clients of Talon's own server get it: the sanitized text, images and audio as typed content,
 * and, for an MCP tool whose output survived the caps whole, its resource links, embedded resources and
 * structured content.
 */
export function talonMcpToolResult(reply: ToolsCallReply): TalonMcpToolResult {
  const mcp = isMcpToolOutput(reply.output) ? reply.output : undefined;
  const resources = mcp?.content.filter((item) => item.type === 'resource_link' || item.type === 'resource');
  return {
    kind: 'talon-mcp-tool-result',
    text: reply.text,
    ...(reply.media ? { media: reply.media } : {}),
    ...(resources && resources.length > 0 ? { resources } : {}),
    ...(mcp?.structuredContent ? { structuredContent: mcp.structuredContent } : {}),
  };
}

/** A typed error as an MCP tool error result. APPROVAL_REQUIRED carries the approval id in text and `_meta`. */
export function toMcpErrorResult(caught: unknown): CallToolResult {
  const error = typedError(caught);
  if (!error) {
    return {
      isError: true,
      content: [{ type: 'text', text: 'INTERNAL: internal error in Talon; see the service log.' }],
      _meta: { 'talon/errorCode': ERROR_CODES.INTERNAL },
    };
  }
  if (error.code === ERROR_CODES.APPROVAL_REQUIRED) {
    const approvalId = (error.details as { approvalId?: unknown } | undefined)?.approvalId;
    const id = typeof approvalId === 'string' ? approvalId : undefined;
    return {
      isError: true,
      content: [
        { type: 'text', text: `approval required${id ? ` (approval id: ${id})` : ''}: ${error.message}` },
      ],
      _meta: { 'talon/errorCode': error.code, ...(id ? { 'talon/approvalId': id } : {}) },
    };
  }
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
    _meta: { 'talon/errorCode': error.code },
  };
}

/**
 * One SDK `Server` (one per MCP session) serving Talon's catalog: `tools/list` reads the live catalog,
 * `tools/call` goes through `call`. Unknown tools are a protocol error (-32602), as MCP asks.
 */
export function createTalonMcpServer(
  options: TalonMcpServerOptions,
  mcpSessionId?: () => string | undefined,
): Server {
  const server = new Server(options.serverInfo ?? DEFAULT_SERVER_INFO, {
    capabilities: { tools: { listChanged: true } },
    ...(options.instructions ? { instructions: options.instructions } : {}),
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await options.catalog.list()).map(toMcpTool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const known = (await options.catalog.list()).some((definition) => definition.name === name);
    if (!known)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${name}. Call tools/list for the current catalog.`,
      );
    const sessionId = mcpSessionId?.();
    try {
      const output = await options.call(name, args, {
        signal: extra.signal,
        ...(sessionId ? { mcpSessionId: sessionId } : {}),
      });
      return toMcpResult(output);
    } catch (error) {
      return toMcpErrorResult(error);
    }
  });
  return server;
}

/**
 * The error's code, message and details when it is a Talon error: a server-side TalonError, or one from
 * `@talon/client` (`talon mcp serve` calls through it), which carries a wire code of its own class.
 */
function typedError(error: unknown): { code: string; message: string; details?: unknown } | undefined {
  if (TalonError.isInstance(error)) return error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
  if (typeof code !== 'string' || !(code in ERROR_CODES) || typeof message !== 'string') return undefined;
  return { code, message, details };
}
