import type { ToolSource } from '@talon/agent';
import type { SelectResult } from '@talon/contracts';
import { mcpServersToStart, type InstallableTools, type SkillMcpAutostart } from '@talon/skills';
import { startMcpServerAndWait, type McpServerControl } from '../mcp/mcp-server-start.js';

/**
 * Starts the MCP servers that the active Trusted skills of a selection need (per
 * `TALON_SKILL_MCP_AUTOSTART`), then waits, bounded, until their declared tools are in the live catalog,
 * so the model sees them in the turn's first call instead of being told to run `mcp_start`. Returns one
 * sentence per skill for its activation report; a server that does not start leaves the offer in place.
 */
export class SkillMcpStarter {
  constructor(
    private readonly control: McpServerControl,
    private readonly tools: ToolSource,
    private readonly installable: InstallableTools,
    private readonly options: { mode: SkillMcpAutostart; waitMs: number },
  ) {}

  async startFor(selection: SelectResult, signal?: AbortSignal): Promise<Map<string, string[]>> {
    const notes = new Map<string, string[]>();
    const starts = mcpServersToStart(selection, this.catalogNames(), this.installable, this.options.mode);
    if (starts.length === 0) return notes;
    const deadline = Date.now() + this.options.waitMs;
    await Promise.all(
      starts.map(async (start) => {
        let note: string;
        try {
          const ready = await startMcpServerAndWait(
            this.control,
            start.server,
            () => this.hasTools(start.tools),
            deadline,
            signal,
          );
          note = ready
            ? `started the MCP server "${start.server}" for ${start.tools.join(', ')}`
            : `started the MCP server "${start.server}", but ${start.tools.join(', ')} did not appear within ${this.options.waitMs} ms`;
        } catch (error) {
          note = `could not start the MCP server "${start.server}": ${(error as Error).message ?? String(error)}`;
        }
        for (const skill of start.skills) notes.set(skill, [...(notes.get(skill) ?? []), note]);
      }),
    );
    return notes;
  }

  private hasTools(tools: readonly string[]): boolean {
    const names = this.catalogNames();
    return tools.every((tool) => names.has(tool) || names.has(tool.replace('.', '_')));
  }

  private catalogNames(): ReadonlySet<string> {
    return new Set(this.tools.list().map((tool) => tool.name));
  }
}
