import type { Tool } from '@talon/tool-runtime';
import type { ToolInstaller } from '../tool-installer.js';
import type { BuiltToolService } from '../tool-builder/built-tool-service.js';
import { extensionToolDefinition } from './extension-tool-definition.js';
import { summarizeInstalledTool, type InstalledToolSummary } from './installed-tool-summary.js';

/** Params of `tool_upgrade`. */
export type ToolUpgradeParams = { name: string; version?: string };

/** `tool_upgrade`: moves an installed tool to the registry's version; calls in flight finish on the old one. */
export function createToolUpgradeTool(
  installer: ToolInstaller,
  built?: BuiltToolService,
): Tool<ToolUpgradeParams, { upgraded: InstalledToolSummary; previousVersion: string }> {
  return {
    definition: extensionToolDefinition({
      name: 'tool_upgrade',
      description:
        'Upgrades an installed sandboxed tool to the version in the registry (no-op when already current). For a built tool: to its newest approved version, or to `version` (a rollback).',
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' },
          version: {
            type: 'string',
            pattern: '^\\d+\\.0\\.0$',
            description: 'Built tools only: the approved version to move to (e.g. "1.0.0" to roll back).',
          },
        },
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
      const upgraded =
        built && (params.version !== undefined || (await built.isBuilt(params.name)))
          ? await built.upgrade(params.name, params.version)
          : await installer.upgrade(params.name);
      return { upgraded: summarizeInstalledTool(upgraded), previousVersion };
    },
  };
}
