import type { Tool } from '@talon/tool-runtime';
import { createSkillInstallTool } from './skill-install.tool.js';
import { createSkillListTool } from './skill-list.tool.js';
import { createSkillRemoveTool } from './skill-remove.tool.js';
import { createSkillSearchTool } from './skill-search.tool.js';
import type { SkillServiceClient } from './skill-service-client.js';

/** The four skill_* control-plane tools, proxies to the skill-service. */
export function createSkillTools(skills: SkillServiceClient): Tool[] {
  // Each tool's params type is narrower than the catalog's generic one; the pipeline validates first.
  return [
    createSkillListTool(skills),
    createSkillSearchTool(skills),
    createSkillInstallTool(skills),
    createSkillRemoveTool(skills),
  ] as unknown as Tool[];
}
