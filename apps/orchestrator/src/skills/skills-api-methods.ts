import { SkillsInstallMethod } from './skills-install.method.js';
import { SkillsListMethod } from './skills-list.method.js';
import { SkillsRemoveMethod } from './skills-remove.method.js';
import { SkillsSearchMethod } from './skills-search.method.js';
import { SkillsSelectMethod } from './skills-select.method.js';
import { SkillsTriggersMethod } from './skills-triggers.method.js';

/** The `skills.*` API methods; each registers itself with the router. Needs the SKILL_SERVICE_CLIENT provider. */
export const SKILLS_API_METHODS = [
  SkillsListMethod,
  SkillsSearchMethod,
  SkillsSelectMethod,
  SkillsInstallMethod,
  SkillsRemoveMethod,
  SkillsTriggersMethod,
];
