import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A grep pattern was refused because it could backtrack catastrophically or is malformed. */
export class UnsafePatternError extends TalonError {
  constructor(pattern: string, reason: string) {
    super(
      ERROR_CODES.POLICY_DENIED,
      `Pattern refused (${reason}); simplify it, or search for a fixed string with fixedString: true.`,
      {
        details: { pattern: pattern.slice(0, 200), reason },
      },
    );
  }
}
