import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A database setting is malformed; Talon refuses to start rather than guess. */
export class InvalidDatabaseConfigError extends TalonError {
  constructor(name: string, value: string, expected: string) {
    super(
      ERROR_CODES.INTERNAL,
      `Configuration ${name}=${JSON.stringify(value)} is invalid: expected ${expected}.`,
      {
        details: { name, value, expected },
      },
    );
  }
}
