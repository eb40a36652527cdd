import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A skill's parameters were missing, of the wrong type, or its template did not render. */
export class SkillParameterError extends TalonError {
  constructor(
    readonly skill: string,
    readonly parameter: string,
    problem: string,
  ) {
    super(
      ERROR_CODES.SCHEMA_VIOLATION,
      `Skill "${skill}": parameter ${parameter} ${problem}; pass it in SelectRequest.parameters["${skill}"].`,
      {
        details: { skill, parameter },
      },
    );
  }
}
