import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Agent options (policy defaults, limits, timeouts) are invalid; the message names the field. */
export class AgentConfigError extends TalonError {
  constructor(problem: string, details: Record<string, unknown> = {}) {
    super(ERROR_CODES.INTERNAL, `Invalid agent configuration: ${problem}`, { details });
  }
}
