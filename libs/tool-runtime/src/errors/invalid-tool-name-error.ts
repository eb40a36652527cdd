import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A tool name the LLM providers would reject (they accept `^[a-zA-Z0-9_-]{1,64}$` only). */
export class InvalidToolNameError extends TalonError {
  constructor(name: string) {
    super(
      ERROR_CODES.SCHEMA_VIOLATION,
      `The tool name "${name.slice(0, 80)}" is not usable by LLM providers; use 1 to 64 letters, digits, "_" or "-".`,
      { details: [{ path: '/name', message: 'must match ^[a-zA-Z0-9_-]{1,64}$' }] },
    );
  }
}
