import type { Tool } from '@talon/tool-runtime';
import { createApplyPatchTool } from './apply-patch-tool.js';
import { createGlobTool } from './glob-tool.js';
import { createGrepTool } from './grep-tool.js';
import { createListDirTool } from './list-dir-tool.js';
import { createReadFileTool } from './read-file-tool.js';
import { createShellTool } from './shell-tool.js';
import { parseWorkspaceOptions, type WorkspaceOptions } from './workspace-options.js';
import { createWriteFileTool } from './write-file-tool.js';

/**
 * All dev tools, confined to one workspace root: shell, read_file, write_file, list_dir, glob,
 * grep, apply_patch. The options are validated once here.
 */
export function createDevTools(options: WorkspaceOptions): Tool[] {
  const resolved = parseWorkspaceOptions(options);
  const tools = [
    createShellTool(resolved),
    createReadFileTool(resolved),
    createWriteFileTool(resolved),
    createListDirTool(resolved),
    createGlobTool(resolved),
    createGrepTool(resolved),
    createApplyPatchTool(resolved),
  ];
  // Each tool has its own params type; the catalog handles them through the generic interface.
  return tools as unknown as Tool[];
}
