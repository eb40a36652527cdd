import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A configuration value is malformed; the service refuses to start. */
export class InvalidConfigError extends TalonError {
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
