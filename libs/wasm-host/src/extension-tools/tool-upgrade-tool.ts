import type { Tool } from '@talon/tool-runtime';
import type { ToolInstaller } from '../tool-installer.js';
import { extensionToolDefinition } from './extension-tool-definition.js';
import { summarizeInstalledTool, type InstalledToolSummary } from './installed-tool-summary.js';

/** Params of `tool_upgrade`. */
export type ToolUpgradeParams = { name: string };

/** `tool_upgrade`: moves an installed tool to the registry's version; calls in flight finish on the old one. */
export function createToolUpgradeTool(
  installer: ToolInstaller,
): Tool<ToolUpgradeParams, { upgraded: InstalledToolSummary; previousVersion: string }> {
  return {
    definition: extensionToolDefinition({
      name: 'tool_upgrade',
      description:
        'Upgrades an installed sandboxed tool to the version in the registry (no-op when already current).',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' } },
        required: ['name'],
        additionalProperties: false,
      },
      effects: ['modify_extension'],
      approval: 'always',
      idempotent: true,
      timeoutMs: 120_000,
    }),
    async execute(params) {
      const previousVersion = installer.info(params.name).installed?.version ?? 'none';
      return { upgraded: summarizeInstalledTool(await installer.upgrade(params.name)), previousVersion };
    },
  };
}
