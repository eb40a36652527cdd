import { ToolBuildInstallRequestSchema, type ToolBuildInstallRequest } from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import type { BuiltToolInstallResult, BuiltToolService } from '../tool-builder/built-tool-service.js';
import { extensionToolDefinition } from './extension-tool-definition.js';
import { summarizeInstalledTool, type InstalledToolSummary } from './installed-tool-summary.js';

/**
 * `tool_build_install`: installs a ready build hot (or upgrades the tool to it). Its params repeat the build's sha256
 * and capabilities, so the approval a person gives shows exactly what the tool will be allowed to do; anything
 * that differs from the build is refused.
 */
export function createToolBuildInstallTool(
  built: BuiltToolService,
): Tool<
  ToolBuildInstallRequest,
  Omit<BuiltToolInstallResult, 'installed'> & { installed: InstalledToolSummary }
> {
  return {
    definition: extensionToolDefinition({
      name: 'tool_build_install',
      description:
        'Installs a tool made by tool_build once a person approved it: give the build_id, sha256 and capabilities from the build report, unchanged. The tool is callable right after.',
      parameters: ToolBuildInstallRequestSchema as unknown as Record<string, unknown>,
      effects: ['modify_extension'],
      approval: 'always',
      idempotent: true,
      timeoutMs: 120_000,
    }),
    async execute(params) {
      const result = await built.installBuild(params);
      return { ...result, installed: summarizeInstalledTool(result.installed) };
    },
  };
}
