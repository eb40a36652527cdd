import type { ActiveSkill, AttenuateResult, SelectResult, ToolDefinition } from '@talon/contracts';

/**
 * The skill service as the loop needs it (`talon.skills.v1.select` / `.attenuate`). Without one, a
 * turn has no skills and every tool of the catalog is visible.
 */
export interface SkillAdvisor {
  select(
    message: string,
    options?: { signal?: AbortSignal; parameters?: Readonly<Record<string, Record<string, unknown>>> },
  ): Promise<SelectResult>;
  attenuate(
    activeSkills: readonly ActiveSkill[],
    tools: readonly ToolDefinition[],
    options?: { signal?: AbortSignal },
  ): Promise<AttenuateResult>;
  /**
   * One skill by name, rendered with these parameters and its declared tools resolved, for `execute_skill`.
   * Throws a typed error: NOT_FOUND (unknown), SKILL_GATED_OUT (requirements or required tools missing),
   * SCHEMA_VIOLATION (parameters), SKILL_TEMPLATE_INVALID / SKILL_TEMPLATE_LIMIT (its template).
   */
  activate?(
    name: string,
    parameters: Readonly<Record<string, unknown>>,
    options?: { signal?: AbortSignal },
  ): Promise<ActiveSkill>;
}
