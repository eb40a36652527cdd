import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A chosen setting value does not fit the hand's declaration (unknown key, wrong type, not an option). */
export class HandSettingError extends TalonError {
  constructor(
    readonly hand: string,
    problem: string,
  ) {
    super(ERROR_CODES.SCHEMA_VIOLATION, `Hand "${hand}": ${problem}; choose a value the hand declares.`, {
      details: { hand },
    });
  }
}
