import { ToolFailedError } from '@talon/tool-runtime';

/** The `time` tool could not read a time value or a duration. */
export class InvalidTimeError extends ToolFailedError {
  constructor(input: string, parameter: string, explanation: string) {
    super(
      `Cannot read "${input.slice(0, 80)}" in ${parameter} (${explanation}); use ISO 8601 such as "2026-03-01T09:30:00+08:00", RFC 2822, an HTTP date, or unix seconds.`,
      { details: { reason: 'invalid_time', input, parameter } },
    );
  }
}
