import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** One JSON Schema violation: where and what. */
export interface SchemaViolation {
  path: string;
  message: string;
}

/** The payload is JSON but does not match the method's schema. */
export class SchemaViolationError extends TalonError {
  constructor(what: string, violations: SchemaViolation[]) {
    const first = violations[0];
    super(
      ERROR_CODES.SCHEMA_VIOLATION,
      `${what} does not match its schema${first ? `: ${first.path || '(root)'} ${first.message}` : ''}. See details for every violation.`,
      { details: { violations } },
    );
  }
}
