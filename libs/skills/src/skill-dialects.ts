/** The front-matter dialects a SKILL.md may be written in (a file may mix them). */
export const SKILL_DIALECTS = {
  /** The Agent Skills spec: name, description, license, compatibility, metadata, allowed-tools. */
  agentSkills: 'agent-skills',
  /** IronClaw / OpenClaw: version, activation, requires, metadata.openclaw, legacy clawdbot. */
  ironclaw: 'ironclaw',
  /** Workflow style: tags, tools, parameters, triggers. */
  workflow: 'workflow',
} as const;

/** One dialect. */
export type SkillDialect = (typeof SKILL_DIALECTS)[keyof typeof SKILL_DIALECTS];

const IRONCLAW_KEYS = ['version', 'activation', 'requires', 'clawdbot'];
const WORKFLOW_KEYS = ['tags', 'tools', 'parameters', 'triggers'];
const SPEC_KEYS = ['license', 'compatibility', 'allowed-tools'];

/** Which dialects a front-matter object uses. */
export function detectDialects(
  data: Record<string, unknown>,
  metadata: Record<string, unknown>,
): SkillDialect[] {
  const dialects: SkillDialect[] = [];
  const has = (keys: string[]) => keys.some((key) => key in data);
  if (has(SPEC_KEYS) || (!has(IRONCLAW_KEYS) && !has(WORKFLOW_KEYS)))
    dialects.push(SKILL_DIALECTS.agentSkills);
  if (has(IRONCLAW_KEYS) || 'openclaw' in metadata || 'clawdbot' in metadata)
    dialects.push(SKILL_DIALECTS.ironclaw);
  if (has(WORKFLOW_KEYS)) dialects.push(SKILL_DIALECTS.workflow);
  return dialects;
}
