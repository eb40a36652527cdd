import type { SkillGating, SkillResources, SkillSource, SkillTrust } from '@talon/contracts';
import type { ParsedSkill } from './parsed-skill.js';

/** A parsed skill placed by discovery: where it came from, how far it is trusted, whether it may run here. */
export interface LoadedSkill extends ParsedSkill {
  trust: SkillTrust;
  source: SkillSource;
  resources: SkillResources;
  gating: SkillGating;
}
