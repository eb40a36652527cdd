import type { ActiveSkill, ToolDefinition, ToolEffect } from '@talon/contracts';

/** Effects a skill can never pre-approve: they change Talon itself (extensions, approvals, budgets) or spend money. */
export const UNPREAPPROVABLE_EFFECTS: readonly ToolEffect[] = [
  'modify_extension',
  'modify_approval',
  'modify_budget',
  'financial',
];

/** One `allowed-tools` entry of an active skill, judged. */
export interface PreApprovalDecision {
  readonly skill: string;
  readonly tool: string;
  readonly granted: boolean;
  readonly reason: string;
}

/** The pre-approvals of a turn: which skill pre-approves each tool, and every decision for the audit. */
export interface SkillPreApprovals {
  readonly byTool: ReadonlyMap<string, string>;
  readonly decisions: readonly PreApprovalDecision[];
}

/** No pre-approvals. */
export const NO_PRE_APPROVALS: SkillPreApprovals = { byTool: new Map(), decisions: [] };

/**
 * `allowed-tools` as the Agent Skills spec means it: tools pre-approved while the skill is active. Granted only
 * when the skill is Trusted, the tool is offered this turn (inside the session's ceiling), its approval is not
 * `always`, and it has none of {@link UNPREAPPROVABLE_EFFECTS}. An Installed skill's list grants nothing (its
 * attenuation stays as it is). Every entry yields a decision, granted or refused with the reason.
 */
export function skillPreApprovals(
  activeSkills: readonly Pick<ActiveSkill, 'name' | 'trust' | 'preApprovedTools'>[],
  visibleTools: readonly ToolDefinition[],
): SkillPreApprovals {
  const visible = new Map(visibleTools.map((tool) => [tool.name, tool]));
  const byTool = new Map<string, string>();
  const decisions: PreApprovalDecision[] = [];
  for (const skill of activeSkills) {
    for (const tool of skill.preApprovedTools ?? []) {
      const refuse = (reason: string) => decisions.push({ skill: skill.name, tool, granted: false, reason });
      const definition = visible.get(tool);
      if (skill.trust !== 'TRUSTED') refuse('an installed skill cannot pre-approve tools');
      else if (definition === undefined)
        refuse('the tool is not offered this turn (unknown or outside the ceiling)');
      else if (definition.approval === 'always') refuse('the tool requires approval for every call');
      else if (definition.effects.some((effect) => UNPREAPPROVABLE_EFFECTS.includes(effect)))
        refuse('the tool changes Talon itself or spends money, which no skill may pre-approve');
      else {
        if (!byTool.has(tool)) byTool.set(tool, skill.name);
        decisions.push({
          skill: skill.name,
          tool,
          granted: true,
          reason: 'pre-approved while the skill is active',
        });
      }
    }
  }
  return { byTool, decisions };
}
