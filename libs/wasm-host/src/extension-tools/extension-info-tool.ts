import type { Tool } from '@talon/tool-runtime';
import type { RegistryEntry } from '../registry-entry.js';
import type { ToolInstaller } from '../tool-installer.js';
import type { BuiltToolInfo, BuiltToolService } from '../tool-builder/built-tool-service.js';
import { extensionToolDefinition } from './extension-tool-definition.js';
import { summarizeInstalledTool, type InstalledToolSummary } from './installed-tool-summary.js';

/** Params of `extension_info`. */
export type ExtensionInfoParams = { name: string };

/** What `extension_info` answers. */
export interface ExtensionInfo {
  installed?: InstalledToolSummary;
  registry?: Pick<
    RegistryEntry,
    'name' | 'display_name' | 'version' | 'wit_version' | 'description' | 'keywords' | 'auth' | 'tags'
  > & { sha256: string };
  upgradeAvailable: boolean;
  /** For a tool made by the tool builder: its approved versions and the source of the current one. */
  built?: BuiltToolInfo;
}

/** `extension_info`: an installed tool and its registry entry side by side (versions, auth needs, upgrade). */
export function createExtensionInfoTool(
  installer: ToolInstaller,
  built?: BuiltToolService,
): Tool<ExtensionInfoParams, ExtensionInfo> {
  return {
    definition: extensionToolDefinition({
      name: 'extension_info',
      description:
        'Shows what is installed and what the registry offers for a sandboxed tool: version, credentials it needs, and whether an upgrade is available.',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' } },
        required: ['name'],
        additionalProperties: false,
      },
      effects: [],
      approval: 'never',
      idempotent: true,
    }),
    async execute(params) {
      const builtInfo = await built?.info(params.name);
      if (builtInfo && !installer.get(params.name)) return { built: builtInfo, upgradeAvailable: false };
      const info = installer.info(params.name);
      const entry = info.registry;
      return {
        installed: info.installed ? summarizeInstalledTool(info.installed) : undefined,
        registry: entry
          ? {
              name: entry.name,
              display_name: entry.display_name,
              version: entry.version,
              wit_version: entry.wit_version,
              description: entry.description,
              keywords: entry.keywords,
              auth: entry.auth,
              tags: entry.tags,
              sha256: entry.artifact.sha256,
            }
          : undefined,
        upgradeAvailable: info.upgradeAvailable,
        ...(builtInfo ? { built: builtInfo } : {}),
      };
    },
  };
}
