import { createHash } from 'node:crypto';

/** The shape every LLM-facing tool name must have. */
export const LLM_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
const SUFFIX_LENGTH = 6;

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
  return `${server}.${tool}`;
}

/**
 * Names a set of MCP tools for the model. `server_tool` with every character outside `[a-zA-Z0-9_-]`
 * replaced by `_`; a name that had to be truncated, or that collides with another in the set (or in
 * `taken`), gets `_` plus six hex digits of sha256(`server.tool`), so the same tool always gets the
 * same name. Requests are processed in sorted order so the result does not depend on list order.
 */
export function assignMcpToolNames(requests: readonly McpToolNameRequest[], taken: ReadonlySet<string> = new Set()): Map<string, McpToolNames> {
  const used = new Set(taken);
  const result = new Map<string, McpToolNames>();
  const sorted = [...requests].sort((a, b) => compare(mcpDisplayName(a.server, a.tool), mcpDisplayName(b.server, b.tool)));
  for (const { server, tool } of sorted) {
    const displayName = mcpDisplayName(server, tool);
    if (result.has(displayName)) continue;
    const base = `${server}_${tool}`.replace(/[^a-zA-Z0-9_-]+/g, '_');
    let llmName = base.length <= MAX_LENGTH && base.length > 0 ? base : withSuffix(base, displayName, '');
    if (used.has(llmName)) llmName = withSuffix(base, displayName, '');
    // A second collision can only be a hash clash or a hostile name that mimics a suffix: salt and retry.
    for (let salt = 1; used.has(llmName); salt += 1) llmName = withSuffix(base, displayName, String(salt));
    used.add(llmName);
    result.set(displayName, { llmName, displayName });
  }
  return result;
}

function withSuffix(base: string, displayName: string, salt: string): string {
  const suffix = createHash('sha256').update(displayName + salt).digest('hex').slice(0, SUFFIX_LENGTH);
  return `${base.slice(0, MAX_LENGTH - SUFFIX_LENGTH - 1)}_${suffix}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
