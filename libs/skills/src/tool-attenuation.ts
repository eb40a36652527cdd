import type { AttenuateResult, AttenuationSkill, ToolCeiling, ToolDefinition } from '@talon/contracts';

/** The tools that stay visible while any Installed skill is active: they read, they never write or reach out. */
export const READ_ONLY_TOOL_WHITELIST = [
  'memory_search',
  'memory_read',
  'memory_tree',
  'time',
  'echo',
  'json',
  'skill_list',
  'skill_search',
  'skill_load',
  'skill_read_file',
] as const;

/**
 * The ceiling for a set of active skills: `read_only` (the whitelist) as soon as one of them is Installed,
 * else `all`.
 *
 * A Trusted skill's `allowed-tools` / `tools` does not narrow the ceiling. In the Agent Skills spec that
 * field pre-approves tools the skill expects to use; it is not a deny list, and several skills may be
 * active at once, so narrowing to one skill's list would silently break the others and the user's own
 * request. It never widens anything either: declared tools are reported in the explanation only.
 */
export function toolCeilingFor(activeSkills: readonly AttenuationSkill[]): ToolCeiling {
  const installed = activeSkills.filter((skill) => skill.trust === 'INSTALLED').map((skill) => skill.name);
  return installed.length > 0
    ? { mode: 'read_only', allowed: [...READ_ONLY_TOOL_WHITELIST], causedBy: installed }
    : { mode: 'all', allowed: [], causedBy: [] };
}

/** Whether a tool may be called under a ceiling. The orchestrator calls this again at dispatch. */
export function isToolAllowed(toolName: string, ceiling: ToolCeiling): boolean {
  return ceiling.mode === 'all' || ceiling.allowed.includes(toolName);
}

/** Filters the visible tools for the active skills, saying what was removed and why. */
export function attenuateTools(
  activeSkills: readonly AttenuationSkill[],
  tools: readonly ToolDefinition[],
): AttenuateResult {
  const ceiling = toolCeilingFor(activeSkills);
  const kept: ToolDefinition[] = [];
  const removed: AttenuateResult['removed'] = [];
  const causes = ceiling.causedBy.map((name) => `"${name}"`).join(', ');
  for (const tool of tools) {
    if (isToolAllowed(tool.name, ceiling)) kept.push(tool);
    else
      removed.push({
        name: tool.name,
        reason: `not on the read-only whitelist while the installed skill${ceiling.causedBy.length > 1 ? 's' : ''} ${causes} ${ceiling.causedBy.length > 1 ? 'are' : 'is'} active`,
      });
  }
  const declared = activeSkills.filter((skill) => skill.allowedTools && skill.allowedTools.length > 0);
  const declaredNote =
    declared.length > 0
      ? ` Declared allowed-tools (${declared.map((skill) => `${skill.name}: ${skill.allowedTools!.join(' ')}`).join('; ')}) are informational and neither narrow nor widen the set.`
      : '';
  const explanation =
    ceiling.mode === 'all'
      ? `All ${kept.length} tools stay visible: no active skill is installed.${declaredNote}`
      : `Installed skill${ceiling.causedBy.length > 1 ? 's' : ''} ${causes} active: only read-only tools stay visible (${kept.length} kept, ${removed.length} removed). Installed skills are suggestions and cannot unlock tools.${declaredNote}`;
  return { kept, removed, explanation, ceiling };
}
