import type { Tool } from '@talon/tool-runtime';
import type { ToolInstaller } from '../tool-installer.js';
import { extensionToolDefinition } from './extension-tool-definition.js';
import { summarizeInstalledTool, type InstalledToolSummary } from './installed-tool-summary.js';

/** Params of `tool_install`: a tool name or a bundle name. */
export type ToolInstallParams = { name?: string; bundle?: string };

/** `tool_install`: installs a registry tool (or bundle) after checking its sha256, WIT version and imports. */
export function createToolInstallTool(
  installer: ToolInstaller,
): Tool<ToolInstallParams, { installed: InstalledToolSummary[] }> {
  return {
    definition: extensionToolDefinition({
      name: 'tool_install',
      description:
        'Installs a sandboxed tool (or a bundle of tools) from the registry; it is callable right after. Use tool_search to find names.',
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$', description: 'Registry tool name.' },
          bundle: {
            type: 'string',
            maxLength: 64,
            description: 'Bundle name from the registry, instead of name.',
          },
        },
        oneOf: [{ required: ['name'] }, { required: ['bundle'] }],
        additionalProperties: false,
      },
      effects: ['modify_extension'],
      approval: 'always',
      idempotent: false,
      timeoutMs: 120_000,
    }),
    async execute(params) {
      if (params.bundle !== undefined)
        return { installed: (await installer.installBundle(params.bundle)).map(summarizeInstalledTool) };
      return { installed: [summarizeInstalledTool(await installer.install(params.name ?? ''))] };
    },
  };
}
