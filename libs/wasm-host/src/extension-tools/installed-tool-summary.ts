import type { InstalledToolInfo } from '../tool-installer.js';

/** What the extension tools show the model about an installed tool: no schema, no pool internals. */
export interface InstalledToolSummary {
  name: string;
  display_name: string;
  version: string;
  sha256: string;
  effects: string[];
  description: string;
}

/** Compacts an {@link InstalledToolInfo} for a tool result. */
export function summarizeInstalledTool(info: InstalledToolInfo): InstalledToolSummary {
  return {
    name: info.name,
    display_name: info.display_name,
    version: info.version,
    sha256: info.sha256,
    effects: [...info.definition.effects],
    description: info.definition.description,
  };
}
