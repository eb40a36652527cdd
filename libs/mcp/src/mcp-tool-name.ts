import { displayName as toolDisplayName, toLlmToolName } from '@talon/tool-runtime';

/** One MCP tool to name: its server's name and the tool's name as the server spells it. */
export interface McpToolNameRequest {
  server: string;
  tool: string;
}

/** The names of one MCP tool: `server_tool` for the model, `server.tool` for people. */
export interface McpToolNames {
  llmName: string;
  displayName: string;
}

/** `server.tool`, the name people read and `mcp_call` accepts. */
export function mcpDisplayName(server: string, tool: string): string {
  return toolDisplayName(server, tool);
}

/**
 * Names a set of MCP tools for the model with tool-runtime's `toLlmToolName` (`server_tool`, sanitised,
 * with a deterministic hash suffix when cut or colliding). The set is processed in sorted order, so which
 * of two colliding tools keeps the plain name does not depend on the order servers listed them.
 * Names in `taken` are avoided (pass names of other tool sources when known); protected built-in names
 * are not avoided here on purpose: registering such a tool fails with the registry's typed error.
 */
export function assignMcpToolNames(
  requests: readonly McpToolNameRequest[],
  taken: ReadonlySet<string> = new Set(),
): Map<string, McpToolNames> {
  const used = new Set(taken);
  const result = new Map<string, McpToolNames>();
  const keyed = requests.map((request) => ({
    ...request,
    displayName: mcpDisplayName(request.server, request.tool),
  }));
  keyed.sort((a, b) => (a.displayName < b.displayName ? -1 : a.displayName > b.displayName ? 1 : 0));
  for (const { server, tool, displayName } of keyed) {
    if (result.has(displayName)) continue;
    const llmName = toLlmToolName(server, tool, used);
    used.add(llmName);
    result.set(displayName, { llmName, displayName });
  }
  return result;
}
