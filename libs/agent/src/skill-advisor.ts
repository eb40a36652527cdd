import type { ActiveSkill, AttenuateResult, SelectResult, ToolDefinition } from '@talon/contracts';

/**
 * The skill service as the loop needs it (`talon.skills.v1.select` / `.attenuate`). Without one, a
 * turn has no skills and every tool of the catalog is visible.
 */
export interface SkillAdvisor {
  select(message: string, options?: { signal?: AbortSignal }): Promise<SelectResult>;
  attenuate(
    activeSkills: readonly ActiveSkill[],
    tools: readonly ToolDefinition[],
    options?: { signal?: AbortSignal },
  ): Promise<AttenuateResult>;
}
