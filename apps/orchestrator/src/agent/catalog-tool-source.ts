import type { ToolSource } from '@talon/agent';
import type { ToolDefinition } from '@talon/contracts';
import { awaitWarmTools, type CatalogWarmUp, type ToolCatalog } from '@talon/tool-runtime';

/** The live catalog as the loop reads it before every model call: a snapshot rebuilt only on change. */
export class CatalogToolSource implements ToolSource {
  private snapshot: readonly ToolDefinition[] = [];
  private version = -1;

  constructor(
    private readonly catalog: ToolCatalog,
    private readonly warmUp?: CatalogWarmUp,
  ) {}

  list(): readonly ToolDefinition[] {
    if (this.version !== this.catalog.version) {
      this.snapshot = this.catalog.list().map((entry) => entry.definition);
      this.version = this.catalog.version;
    }
    return this.snapshot;
  }

  /** Tools missing after a start may still be announced: waits for them while the catalog warms up. */
  async whenListed(names: readonly string[], signal?: AbortSignal): Promise<void> {
    if (this.warmUp) await awaitWarmTools(this.catalog, this.warmUp, names, signal);
  }

  /** Local tools may decide per call; remote tools answer with their declared requirement. */
  approvalFor(tool: string, params: Readonly<Record<string, unknown>>) {
    const local = this.catalog.get(tool)?.tool;
    return local?.approvalFor?.(params as Record<string, unknown>);
  }
}
