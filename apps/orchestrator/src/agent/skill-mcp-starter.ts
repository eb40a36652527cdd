import type { ToolSource } from '@talon/agent';
import type { SelectResult } from '@talon/contracts';
import { mcpServersToStart, type InstallableTools, type SkillMcpAutostart } from '@talon/skills';

/** What the starter needs of MCP control: start one server by name (idempotent for a running one). */
export interface McpServerControl {
  start(server: string): Promise<unknown>;
}

/** How often the catalog is looked at while a started server's tools are announced. */
const POLL_MS = 50;

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
          await withDeadline(this.control.start(start.server), deadline);
          const ready = await this.waitForTools(start.tools, deadline, signal);
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

  private async waitForTools(
    tools: readonly string[],
    deadline: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    for (;;) {
      const names = this.catalogNames();
      if (tools.every((tool) => names.has(tool) || names.has(tool.replace('.', '_')))) return true;
      if (Date.now() >= deadline || signal?.aborted) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private catalogNames(): ReadonlySet<string> {
    return new Set(this.tools.list().map((tool) => tool.name));
  }
}

function withDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('it did not start in time')),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
