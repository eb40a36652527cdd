/** Injection token of the {@link SkillServiceClient} shared by the skills API methods, tools and agent loop. */
export const SKILL_SERVICE_CLIENT = Symbol('SKILL_SERVICE_CLIENT');
