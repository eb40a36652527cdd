import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A dev tool received params its schema does not allow (the tools check again when called directly). */
export class InvalidToolParamsError extends TalonError {
  constructor(tool: string, param: string, expectation: string) {
    super(ERROR_CODES.SCHEMA_VIOLATION, `Tool ${tool}: param \`${param}\` ${expectation}.`, {
      details: { tool, param },
    });
  }
}
