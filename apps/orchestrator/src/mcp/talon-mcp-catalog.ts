import type { TalonMcpServerOptions } from '@talon/mcp';
import type { ToolCatalog } from '@talon/tool-runtime';
import type { ToolDispatcher } from '../tools/tool-dispatcher.js';

/**
 * What Talon serves to MCP clients: the live catalog (changes become `tools/list_changed`) and calls through
 * the dispatcher, so an MCP client gets the same validation, policy, output safety and audit as the agent.
 * The reply is the wrapped, sanitized text the model would read. A call needing approval fails with
 * APPROVAL_REQUIRED, which the MCP layer turns into an "approval required" result carrying the approval id.
 */
export function talonMcpServerOptions(catalog: ToolCatalog, dispatcher: ToolDispatcher, actor: string): TalonMcpServerOptions {
  return {
    catalog: {
      list: () => catalog.list().map((entry) => entry.definition),
      onChange: (listener) => catalog.onChange(() => listener()),
    },
    call: async (tool, args, context) => {
      const reply = await dispatcher.call({
        tool,
        params: args,
        signal: context.signal,
        actor: context.mcpSessionId ? `${actor}:${context.mcpSessionId}` : actor,
      });
      return reply.text;
    },
  };
}
