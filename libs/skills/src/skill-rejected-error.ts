import { ERROR_CODES, type SkillRejection } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A SKILL.md offered for installation was refused by the parser; `details.rejection` says why. */
export class SkillRejectedError extends TalonError {
  constructor(readonly rejection: SkillRejection) {
    super(ERROR_CODES.SCHEMA_VIOLATION, `The skill was refused (${rejection.reason}): ${rejection.message}`, {
      details: { rejection },
    });
  }
}
