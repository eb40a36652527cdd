import type { Tool } from '@talon/tool-runtime';
import type { ToolInstaller } from '../tool-installer.js';
import type { BuiltToolService } from '../tool-builder/built-tool-service.js';
import { createToolBuildInstallTool } from './tool-build-install-tool.js';
import { createToolBuildTool } from './tool-build-tool.js';
import { createExtensionInfoTool } from './extension-info-tool.js';
import { createToolInstallTool } from './tool-install-tool.js';
import { createToolListTool } from './tool-list-tool.js';
import { createToolRemoveTool } from './tool-remove-tool.js';
import { createToolSearchTool } from './tool-search-tool.js';
import { createToolUpgradeTool } from './tool-upgrade-tool.js';

/**
 * `tool_search`, `tool_install`, `tool_list`, `tool_upgrade`, `tool_remove` and `extension_info` over one installer;
 * with a builder also `tool_build` and `tool_build_install`.
 */
export function createExtensionTools(installer: ToolInstaller, built?: BuiltToolService): Tool[] {
  return [
    createToolSearchTool(installer),
    createToolInstallTool(installer),
    createToolListTool(installer),
    createToolUpgradeTool(installer, built),
    createToolRemoveTool(installer),
    createExtensionInfoTool(installer, built),
    ...(built ? [createToolBuildTool(built), createToolBuildInstallTool(built)] : []),
  ] as Tool[];
}
