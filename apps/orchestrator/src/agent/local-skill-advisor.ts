import type { SkillAdvisor } from '@talon/agent';
import type { ActiveSkill, AttenuateResult, SelectResult, ToolDefinition } from '@talon/contracts';
import { attenuateTools } from '@talon/skills';
import type { SkillServiceClient } from '../skills/skill-service-client.js';

/**
 * Selection asks the skill-service (it owns the skill index); attenuation runs here with the same
 * library function the skill-service uses. Attenuation is a pure function of the active skills' trust
 * and the tool list, and the loop re-attenuates before every model call: computing it locally saves two
 * round trips that each carried the whole catalog.
 */
export class LocalSkillAdvisor implements SkillAdvisor {
  constructor(private readonly client: SkillServiceClient) {}

  select(message: string, options?: { signal?: AbortSignal }): Promise<SelectResult> {
    return this.client.select(message, options);
  }

  async attenuate(
    activeSkills: readonly ActiveSkill[],
    tools: readonly ToolDefinition[],
  ): Promise<AttenuateResult> {
    return attenuateTools(
      activeSkills.map(({ name, trust, allowedTools }) => ({
        name,
        trust,
        ...(allowedTools ? { allowedTools: [...allowedTools] } : {}),
      })),
      tools,
    );
  }
}
