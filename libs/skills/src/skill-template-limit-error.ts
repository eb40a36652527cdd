import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The sandbox limits a template may hit. */
export const SKILL_TEMPLATE_LIMITS = {
  output: 'output',
  work: 'work',
  loopIterations: 'loop_iterations',
  steps: 'steps',
  items: 'items',
} as const;
/** One of {@link SKILL_TEMPLATE_LIMITS}. */
export type SkillTemplateLimit = (typeof SKILL_TEMPLATE_LIMITS)[keyof typeof SKILL_TEMPLATE_LIMITS];

/** A skill's template hit a sandbox limit; rendering stopped there. */
export class SkillTemplateLimitError extends TalonError {
  constructor(
    readonly skill: string,
    readonly limit: SkillTemplateLimit,
    readonly max: number,
    readonly line: number | undefined,
  ) {
    super(
      ERROR_CODES.SKILL_TEMPLATE_LIMIT,
      `Skill "${skill}": the template exceeded its ${limit.replace('_', ' ')} limit of ${max}${line === undefined ? '' : ` (line ${line})`}; make its loops and output smaller.`,
      { details: { skill, limit, max, ...(line === undefined ? {} : { line }) } },
    );
  }
}
