import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A `timezone` that is not an IANA zone, or a `now` that is not an ISO 8601 instant. */
export class ScheduleInputError extends TalonError {
  constructor(
    readonly field: 'timezone' | 'now',
    value: string,
  ) {
    super(
      ERROR_CODES.SCHEMA_VIOLATION,
      field === 'timezone'
        ? `Unknown timezone "${value}": pass an IANA name such as "Asia/Shanghai" or "Europe/Berlin".`
        : `"now" must be an ISO 8601 instant such as "2026-12-01T09:00:00Z"; got "${value}".`,
      { details: { field, value } },
    );
  }
}
