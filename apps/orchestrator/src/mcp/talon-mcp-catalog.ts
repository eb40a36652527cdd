import type { ToolsCallReply } from '@talon/contracts';
import { talonMcpToolResult, type TalonMcpServerOptions } from '@talon/mcp';
import type { ToolCatalog } from '@talon/tool-runtime';
import type { DispatchRequest } from '../tools/tool-dispatcher.js';

/** Runs one call for an MCP client: the policy gate with the client's session, or the dispatcher in tests. */
export type McpToolCall = (
  request: DispatchRequest,
  mcpSessionId: string | undefined,
) => Promise<ToolsCallReply>;

/**
 * What Talon serves to MCP clients: the live catalog (changes become `tools/list_changed`) and calls through
 * the dispatcher, so an MCP client gets the same validation, policy, output safety and audit as the agent.
 * The reply is the wrapped, sanitized text the model would read. A call needing approval fails with
 * APPROVAL_REQUIRED, which the MCP layer turns into an "approval required" result carrying the approval id.
 */
export function talonMcpServerOptions(
  catalog: ToolCatalog,
  call: McpToolCall,
  actor: string,
): TalonMcpServerOptions {
  return {
    catalog: {
      list: () => catalog.list().map((entry) => entry.definition),
      onChange: (listener) => catalog.onChange(() => listener()),
    },
    call: async (tool, args, context) => {
      const reply = await call(
        {
          tool,
          params: args,
          signal: context.signal,
          actor: context.mcpSessionId ? `${actor}:${context.mcpSessionId}` : actor,
        },
        context.mcpSessionId,
      );
      return talonMcpToolResult(reply);
    },
  };
}
