import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalRequirement, ToolDefinition, UnusableMcpTool } from '@talon/contracts';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import { McpInvalidInputError } from './errors/mcp-invalid-input-error.js';
import { McpToolFailedError } from './errors/mcp-tool-failed-error.js';
import type { McpToolInfo } from './mcp-connection.js';
import { describeSchemaErrors, type McpJsonSchemaCompiler } from './mcp-json-schema-compiler.js';
import { mapMcpToolResult, type MapMcpToolResultOptions, type McpToolOutput } from './mcp-result-mapper.js';
import type { McpServerDefinition } from './mcp-server-config.js';
import type { McpToolNames } from './mcp-tool-name.js';

/** Sends one call to an MCP server (the manager: start on first use, capacity, timeouts). */
export type McpToolCaller = (
  server: string,
  tool: string,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal; timeoutMs?: number },
) => Promise<CallToolResult>;

export type { UnusableMcpTool };

/** The outcome of adapting one MCP tool. */
export type AdaptedMcpTool =
  { ok: true; tool: Tool<Record<string, unknown>, McpToolOutput> } | { ok: false; unusable: UnusableMcpTool };

/** Everything {@link adaptMcpTool} needs. */
export interface AdaptMcpToolInput {
  server: McpServerDefinition;
  tool: McpToolInfo;
  names: McpToolNames;
  call: McpToolCaller;
  schemas: McpJsonSchemaCompiler;
  result?: MapMcpToolResultOptions;
}

const APPROVAL_ORDER: readonly ApprovalRequirement[] = ['never', 'unless_auto_approved', 'always'];
/**
 * Longest MCP tool description handed to the model, in characters; a longer one is cut and ends with
 * {@link DESCRIPTION_CUT_MARKER} so the cut is visible (documented in docs/api.md).
 */
export const MAX_MCP_TOOL_DESCRIPTION_CHARS = 4096;
/** Appended to a cut description. */
export const DESCRIPTION_CUT_MARKER = ' […description cut by Talon at 4096 characters]';

/** A server's tool description within {@link MAX_MCP_TOOL_DESCRIPTION_CHARS}, with a visible marker when cut. */
export function capToolDescription(description: string): string {
  if (description.length <= MAX_MCP_TOOL_DESCRIPTION_CHARS) return description;
  return (
    description.slice(0, MAX_MCP_TOOL_DESCRIPTION_CHARS - DESCRIPTION_CUT_MARKER.length) +
    DESCRIPTION_CUT_MARKER
  );
}

/**
 * The approval a server tool gets: the configured requirement, raised to `always` when the server says
 * `destructiveHint: true`. Hints come from the server and are untrusted, so `readOnlyHint` (or any other
 * hint) never lowers what the configuration asks for.
 */
export function mcpToolApproval(
  configured: ApprovalRequirement,
  annotations: McpToolInfo['annotations'],
): ApprovalRequirement {
  const hinted: ApprovalRequirement = annotations?.destructiveHint === true ? 'always' : 'never';
  return APPROVAL_ORDER.indexOf(hinted) > APPROVAL_ORDER.indexOf(configured) ? hinted : configured;
}

/**
 * Turns one MCP tool into a Talon {@link Tool}: source `mcp`, domain `container` for stdio servers and
 * `orchestrator` for remote ones, effects from the server's config. Arguments are validated against the
 * server's input schema before the call; an input schema that is not valid JSON Schema makes the tool
 * unusable (with the reason) instead of crashing anything. `isError` results throw TOOL_FAILED.
 */
export function adaptMcpTool(input: AdaptMcpToolInput): AdaptedMcpTool {
  const { server, tool, names } = input;
  const compiled = input.schemas.compile(tool.inputSchema);
  if (!compiled.ok) {
    return {
      ok: false,
      unusable: {
        server: server.name,
        tool: tool.name,
        displayName: names.displayName,
        reason: `input schema: ${compiled.reason}`,
      },
    };
  }
  // The SDK checks structured output against the output schema; one Talon cannot compile fails every call.
  const output = tool.outputSchema === undefined ? undefined : input.schemas.compile(tool.outputSchema);
  if (output && !output.ok) {
    return {
      ok: false,
      unusable: {
        server: server.name,
        tool: tool.name,
        displayName: names.displayName,
        reason: `output schema: ${output.reason}`,
      },
    };
  }
  const description = capToolDescription(
    tool.description ?? tool.title ?? tool.annotations?.title ?? `MCP tool ${names.displayName}`,
  );
  const definition: ToolDefinition = {
    name: names.llmName,
    displayName: names.displayName,
    description,
    parameters: tool.inputSchema as Record<string, unknown>,
    effects: [...server.effects],
    approval: mcpToolApproval(server.approval, tool.annotations),
    timeoutMs: server.callTimeoutMs,
    domain: server.transport.type === 'stdio' ? 'container' : 'orchestrator',
    source: 'mcp',
    sensitiveParams: [],
    // Retrying is only safe when Talon knows a call is idempotent; a server's hint does not establish that.
    idempotent: false,
    ...(server.sandbox ? { sandbox: server.sandbox } : {}),
  };
  const execute = async (params: Record<string, unknown>, context: ToolContext): Promise<McpToolOutput> => {
    if (!compiled.validate(params)) {
      const violations = describeSchemaErrors(compiled.validate.errors);
      throw new McpInvalidInputError(
        `Arguments of ${names.displayName} do not match its input schema: ${violations}. Fix them and call again.`,
        {
          details: { tool: names.displayName, violations },
        },
      );
    }
    const raw = await input.call(server.name, tool.name, params, {
      signal: context.signal,
      timeoutMs: server.callTimeoutMs,
    });
    const output = mapMcpToolResult(raw, input.result);
    if (output.isError) {
      throw new McpToolFailedError(`${names.displayName} reported an error: ${output.text || 'no message'}`, {
        details: { tool: names.displayName, text: output.text },
      });
    }
    return output;
  };
  return { ok: true, tool: { definition, execute } };
}
