import { ERROR_CODES, type ErrorCode } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** An install source could not be used: unknown registry entry, bad URL, fetch failure, too large, unreadable path. */
export class SkillSourceError extends TalonError {
  constructor(
    code: ErrorCode = ERROR_CODES.TOOL_FAILED,
    message: string,
    options: { details?: unknown; cause?: unknown; retryable?: boolean } = {},
  ) {
    super(code, message, options);
  }
}
