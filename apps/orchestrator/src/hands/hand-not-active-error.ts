import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A run of an instance that is paused, in error or inactive. */
export class HandNotActiveError extends TalonError {
  constructor(name: string, state: string, reason?: string) {
    super(
      ERROR_CODES.HAND_NOT_ACTIVE,
      `Hand instance "${name}" is ${state}${reason ? ` (${reason})` : ''}; ${
        state === 'inactive' ? 'activate it again with hands.activate' : 'resume it with hands.resume'
      } before running it.`,
      { details: { instance: name, state } },
    );
  }
}
