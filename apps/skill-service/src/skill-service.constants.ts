/** Injection tokens of the skill-service. */
export const SKILL_CATALOG = Symbol('SKILL_CATALOG');
/** The sync of installed skills with the other replicas (JetStream KV `talon_skills`). */
export const SKILL_SHARING = Symbol('SKILL_SHARING');
