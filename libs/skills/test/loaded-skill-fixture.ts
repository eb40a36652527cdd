import type { SkillSource, SkillTrust } from '@talon/contracts';
import type { LoadedSkill } from '../src/loaded-skill.js';
import { parseSkillText } from '../src/skill-parser.js';

/** Front matter fields for {@link makeSkill}, written as YAML lines. */
export interface MakeSkillInput {
  name: string;
  description?: string;
  frontMatter?: string;
  body?: string;
  trust?: SkillTrust;
  eligible?: boolean;
}

/** Parses a SKILL.md built from the input and wraps it as a discovered skill (fails the test on rejection). */
export function makeSkill(input: MakeSkillInput): LoadedSkill {
  const text = `---\nname: ${input.name}\ndescription: ${JSON.stringify(input.description ?? `The ${input.name} skill.`)}\n${input.frontMatter ?? ''}\n---\n${input.body ?? `Instructions of ${input.name}.`}\n`;
  const result = parseSkillText(text, { path: `/skills/${input.name}/SKILL.md` });
  if (!result.ok) throw new Error(`fixture ${input.name} rejected: ${result.rejection.reason} ${result.rejection.message}`);
  const trust = input.trust ?? 'TRUSTED';
  const source: SkillSource = trust === 'INSTALLED' ? 'installed' : 'workspace';
  return {
    ...result.skill,
    trust,
    source,
    resources: { scripts: [], references: [], assets: [] },
    gating: input.eligible === false ? { eligible: false, reasons: ['binary "x" is not on PATH'] } : { eligible: true, reasons: [] },
  };
}
