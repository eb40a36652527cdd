import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A routine trigger that cannot be scheduled: `field` names the part to fix (`trigger.expression.hour`, …). */
export class InvalidTriggerError extends TalonError {
  readonly field: string;

  constructor(field: string, message: string, details: Record<string, unknown> = {}) {
    super(ERROR_CODES.INVALID_TRIGGER, `${field}: ${message}`, { details: { field, ...details } });
    this.field = field;
  }
}
