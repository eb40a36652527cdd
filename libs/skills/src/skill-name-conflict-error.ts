import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A skill of that name is already installed and `replace` was not requested, or the name is not a valid skill name. */
export class SkillNameConflictError extends TalonError {
  constructor(name: string, message: string) {
    super(ERROR_CODES.NAME_CONFLICT, message, { details: { name } });
  }
}
