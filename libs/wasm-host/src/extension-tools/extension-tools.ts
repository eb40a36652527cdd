import type { Tool } from '@talon/tool-runtime';
import type { ToolInstaller } from '../tool-installer.js';
import { createExtensionInfoTool } from './extension-info-tool.js';
import { createToolInstallTool } from './tool-install-tool.js';
import { createToolListTool } from './tool-list-tool.js';
import { createToolRemoveTool } from './tool-remove-tool.js';
import { createToolSearchTool } from './tool-search-tool.js';
import { createToolUpgradeTool } from './tool-upgrade-tool.js';

/** `tool_search`, `tool_install`, `tool_list`, `tool_upgrade`, `tool_remove` and `extension_info` over one installer. */
export function createExtensionTools(installer: ToolInstaller): Tool[] {
  return [
    createToolSearchTool(installer),
    createToolInstallTool(installer),
    createToolListTool(installer),
    createToolUpgradeTool(installer),
    createToolRemoveTool(installer),
    createExtensionInfoTool(installer),
  ] as Tool[];
}
