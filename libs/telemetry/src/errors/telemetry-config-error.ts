import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** An `OTEL_*` or `TALON_METRICS_*` variable is malformed; the service refuses to start. */
export class TelemetryConfigError extends TalonError {
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
