import type { CatalogTool, ToolsListReply, ToolsListRequest } from '@talon/contracts';
import type { CatalogEntry, ToolCatalog } from '@talon/tool-runtime';

/** A catalog entry as the API shows it. */
export function toCatalogTool(entry: CatalogEntry): CatalogTool {
  return {
    definition: entry.definition,
    location: entry.location,
    instances: [...entry.instances.keys()].sort(),
  };
}

/** The catalog filtered as `tools.list` asks. */
export function listCatalog(catalog: ToolCatalog, filter: ToolsListRequest = {}): ToolsListReply {
  const tools = catalog
    .list()
    .filter(
      (entry) =>
        (!filter.domain || entry.definition.domain === filter.domain) &&
        (!filter.source || entry.definition.source === filter.source),
    )
    .map(toCatalogTool);
  return { version: catalog.version, tools, conflicts: catalog.conflicts() };
}
