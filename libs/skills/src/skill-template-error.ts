import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A skill's template does not parse or render: the skill, the line (1-based, of the body) and the problem. */
export class SkillTemplateError extends TalonError {
  constructor(
    readonly skill: string,
    readonly line: number | undefined,
    readonly problem: string,
  ) {
    super(
      ERROR_CODES.SKILL_TEMPLATE_INVALID,
      `Skill "${skill}": template error${line === undefined ? '' : ` on line ${line}`}: ${problem}. Fix the SKILL.md body${problem.endsWith('is undefined') ? ', declare the parameter, or give it a fallback with "| default(…)"' : ''}.`,
      { details: { skill, ...(line === undefined ? {} : { line }), problem } },
    );
  }
}
