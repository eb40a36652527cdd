import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The pipeline was asked to run a tool it only knows by definition (a remote tool) without an executor. */
export class NoLocalExecutorError extends TalonError {
  constructor(tool: string) {
    super(
      ERROR_CODES.INTERNAL,
      `Tool "${tool}" has no local implementation here; pass an executor that dispatches it to its domain.`,
      { details: { tool } },
    );
  }
}
