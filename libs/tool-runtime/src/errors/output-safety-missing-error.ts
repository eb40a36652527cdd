import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The pipeline was asked to post-process output without a leak scanner, sanitizer and wrapper: a wiring bug. */
export class OutputSafetyMissingError extends TalonError {
  constructor() {
    super(
      ERROR_CODES.INTERNAL,
      'ToolPipeline has no output safety configured; pass leakScanner, sanitizer and wrapper before post-processing output.',
    );
  }
}
