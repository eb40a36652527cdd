import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The downloaded or read SKILL.md does not have the expected sha256 (or its name differs from the registry entry). */
export class SkillIntegrityError extends TalonError {
  constructor(message: string, details: { expected: string; actual: string; source: string }) {
    super(ERROR_CODES.INTEGRITY_MISMATCH, message, { details });
  }
}
