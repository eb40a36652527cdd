/** Injection tokens of the skill-service. */
export const SKILL_CATALOG = Symbol('SKILL_CATALOG');
