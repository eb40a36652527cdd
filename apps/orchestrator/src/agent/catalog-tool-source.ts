import type { ToolSource } from '@talon/agent';
import type { ToolDefinition } from '@talon/contracts';
import type { ToolCatalog } from '@talon/tool-runtime';

/** The live catalog as the loop reads it before every model call: a snapshot rebuilt only on change. */
export class CatalogToolSource implements ToolSource {
  private snapshot: readonly ToolDefinition[] = [];
  private version = -1;

  constructor(private readonly catalog: ToolCatalog) {}

  list(): readonly ToolDefinition[] {
    if (this.version !== this.catalog.version) {
      this.snapshot = this.catalog.list().map((entry) => entry.definition);
      this.version = this.catalog.version;
    }
    return this.snapshot;
  }

  /** Local tools may decide per call; remote tools answer with their declared requirement. */
  approvalFor(tool: string, params: Readonly<Record<string, unknown>>) {
    const local = this.catalog.get(tool)?.tool;
    return local?.approvalFor?.(params as Record<string, unknown>);
  }
}
