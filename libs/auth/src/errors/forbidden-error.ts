import { ERROR_CODES, type ApiScope } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A valid token whose scope does not cover the method. */
export class ForbiddenError extends TalonError {
  constructor(method: string, needed: ApiScope, held: ApiScope) {
    super(
      ERROR_CODES.FORBIDDEN,
      `${method} needs a token with the "${needed}" scope; this token has "${held}". Ask an operator for a token with that scope.`,
      { details: { method, needed, held } },
    );
  }
}
