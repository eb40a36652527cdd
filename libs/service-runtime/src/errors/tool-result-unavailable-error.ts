import { ERROR_CODES, type ToolResultReference } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A tool result left in the object store (too large for its reply) that could not be read back. */
export class ToolResultUnavailableError extends TalonError {
  constructor(tool: string, reference: ToolResultReference, options: { cause?: unknown } = {}) {
    super(
      ERROR_CODES.TOOL_RESULT_UNAVAILABLE,
      `The tool "${tool}" ran, but its ${reference.bytes}-byte result could not be read from the object store ${reference.bucket}. The call has taken effect: check before calling it again, or ask for less.`,
      { details: { tool, ...reference }, cause: options.cause },
    );
  }
}
