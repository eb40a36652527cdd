import type { Tool } from '@talon/tool-runtime';
import type { ToolInstaller } from '../tool-installer.js';
import { extensionToolDefinition } from './extension-tool-definition.js';
import { summarizeInstalledTool, type InstalledToolSummary } from './installed-tool-summary.js';

/** `tool_list`: the installed component tools. */
export function createToolListTool(
  installer: ToolInstaller,
): Tool<Record<string, never>, { tools: InstalledToolSummary[] }> {
  return {
    definition: extensionToolDefinition({
      name: 'tool_list',
      description: 'Lists the installed sandboxed tools with their versions and effects.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      effects: [],
      approval: 'never',
      idempotent: true,
    }),
    async execute() {
      return { tools: installer.list().map(summarizeInstalledTool) };
    },
  };
}
