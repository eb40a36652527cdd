import type { HandSummary, McpServerView } from '@talon/contracts';
import type { ToolCatalog } from '@talon/tool-runtime';
import { startMcpServerAndWait, type McpServerControl } from '../mcp/mcp-server-start.js';
import { HandMcpServerError } from './hand-mcp-server-error.js';

/**
 * Activates a hand's `mcp_servers` as its run starts: each one whose tools are not in the live catalog is
 * started (a running one answers the start at once) and waited for, bounded by `waitMs`, until every
 * usable tool it listed is in the catalog. Returns the catalog names of those servers' tools — the run's
 * allowlist gets them, so the model is offered them in its first call. A server that does not start, or
 * whose tools do not appear in time, fails the run with a {@link HandMcpServerError} naming it.
 */
export class HandMcpServers {
  constructor(
    private readonly control: McpServerControl<McpServerView>,
    private readonly tools: ToolCatalog,
    private readonly waitMs: number,
  ) {}

  async activate(hand: HandSummary, signal?: AbortSignal): Promise<string[]> {
    const deadline = Date.now() + this.waitMs;
    await Promise.all(
      hand.mcpServers
        .filter((server) => this.toolsOf(server).length === 0)
        .map(async (server) => {
          let ready: boolean;
          try {
            ready = await startMcpServerAndWait(
              this.control,
              server,
              (view) => this.announced(server, view),
              deadline,
              signal,
            );
          } catch (error) {
            throw new HandMcpServerError(
              hand.id,
              server,
              `did not start (${(error as Error).message})`,
              error,
            );
          }
          if (!ready && !signal?.aborted)
            throw new HandMcpServerError(
              hand.id,
              server,
              `started, but its tools did not appear within ${this.waitMs} ms`,
            );
        }),
    );
    return hand.mcpServers.flatMap((server) => this.toolsOf(server));
  }

  /** Whether every usable tool the started server listed is in the catalog. */
  private announced(server: string, view: McpServerView): boolean {
    const unusable = new Set(view.unusableTools.map((entry) => entry.tool));
    const present = new Set(this.tools.list().map((entry) => entry.definition.displayName));
    return view.tools.every((tool) => unusable.has(tool) || present.has(`${server}.${tool}`));
  }

  private toolsOf(server: string): string[] {
    return this.tools
      .list()
      .filter((entry) => (entry.definition.displayName ?? '').startsWith(`${server}.`))
      .map((entry) => entry.definition.name);
  }
}
