import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** An `execute_skill` sub-task used up one of its limits before it finished. */
export class SkillTaskLimitError extends TalonError {
  constructor(
    readonly skill: string,
    readonly limit: string,
  ) {
    super(
      ERROR_CODES.SKILL_TASK_LIMIT,
      `The skill "${skill}" used up its ${limit} before it finished; give it a smaller task.`,
      { details: { skill, limit } },
    );
  }
}
