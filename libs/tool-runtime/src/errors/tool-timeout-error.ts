import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The tool did not finish within its timeout, or the caller cancelled the call. */
export class ToolTimeoutError extends TalonError {
  declare readonly details: { tool: string; timeoutMs: number; reason: 'timeout' | 'cancelled' };

  constructor(tool: string, timeoutMs: number, reason: 'timeout' | 'cancelled' = 'timeout') {
    super(
      ERROR_CODES.TIMEOUT,
      reason === 'timeout'
        ? `Tool "${tool}" did not finish within ${timeoutMs} ms; retry with a smaller task or later.`
        : `The call of tool "${tool}" was cancelled by its caller before it finished.`,
      { details: { tool, timeoutMs, reason }, retryable: reason === 'timeout' },
    );
  }
}
