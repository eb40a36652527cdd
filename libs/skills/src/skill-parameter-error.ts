import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A skill's parameters were missing, of the wrong type, outside their `enum`, or not declared. */
export class SkillParameterError extends TalonError {
  constructor(
    readonly skill: string,
    readonly parameter: string,
    problem: string,
  ) {
    super(
      ERROR_CODES.SCHEMA_VIOLATION,
      `Skill "${skill}": parameter ${parameter} ${problem}; pass it as ${parameter === '(command)' ? 'key=value after the command' : `${parameter}=… (a command) or in the skill's parameters`}.`,
      { details: { skill, parameter, problem } },
    );
  }
}
