import type { Tool } from '@talon/tool-runtime';
import { createSkillInstallTool } from './skill-install.tool.js';
import { createSkillListTool } from './skill-list.tool.js';
import { createSkillLoadTool } from './skill-load.tool.js';
import { createSkillReadFileTool } from './skill-read-file.tool.js';
import { createSkillRemoveTool } from './skill-remove.tool.js';
import { createSkillSearchTool } from './skill-search.tool.js';
import type { SkillServiceClient } from './skill-service-client.js';

/** The skill_* control-plane tools, proxies to the skill-service. */
export function createSkillTools(skills: SkillServiceClient): Tool[] {
  // Each tool's params type is narrower than the catalog's generic one; the pipeline validates first.
  return [
    createSkillListTool(skills),
    createSkillSearchTool(skills),
    createSkillInstallTool(skills),
    createSkillRemoveTool(skills),
    createSkillLoadTool(skills),
    createSkillReadFileTool(skills),
  ] as unknown as Tool[];
}
