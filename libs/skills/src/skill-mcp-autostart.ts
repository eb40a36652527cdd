import type { SelectResult } from '@talon/contracts';
import { resolveSkillTools, type InstallableTools } from './skill-tool-resolution.js';

/**
 * When the orchestrator starts the MCP servers that active skills need (env `TALON_SKILL_MCP_AUTOSTART`):
 * `trusted` starts them for Trusted skills before the model is called (the operator put both the skill and
 * the server definition in place); `off` only offers `mcp_start`. Installed skills only ever get offers.
 */
export const SKILL_MCP_AUTOSTART_MODES = ['trusted', 'off'] as const;
/** One of {@link SKILL_MCP_AUTOSTART_MODES}. */
export type SkillMcpAutostart = (typeof SKILL_MCP_AUTOSTART_MODES)[number];

/** A server to start, with the skills and declared tools that need it. */
export interface McpServerStart {
  server: string;
  skills: string[];
  tools: string[];
}

/**
 * The MCP servers to start for a selection: those whose tools an active Trusted skill declares and the
 * live catalog lacks, one entry per server with every skill and tool that wants it.
 */
export function mcpServersToStart(
  selection: SelectResult,
  catalog: ReadonlySet<string>,
  installable: InstallableTools,
  mode: SkillMcpAutostart,
): McpServerStart[] {
  if (mode === 'off') return [];
  const starts = new Map<string, McpServerStart>();
  for (const skill of selection.active) {
    if (skill.trust !== 'TRUSTED' || !skill.tools?.length) continue;
    for (const offer of resolveSkillTools(skill.tools, catalog, installable).offers) {
      if (offer.via.tool !== 'mcp_start') continue;
      const server = offer.via.params.server;
      const entry = starts.get(server) ?? { server, skills: [], tools: [] };
      if (!entry.skills.includes(skill.name)) entry.skills.push(skill.name);
      if (!entry.tools.includes(offer.tool)) entry.tools.push(offer.tool);
      starts.set(server, entry);
    }
  }
  return [...starts.values()];
}
