import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A tool's parameter JSON Schema cannot be compiled; raised at registration, never at call time. */
export class InvalidToolSchemaError extends TalonError {
  constructor(toolName: string, reason: string, cause?: unknown) {
    super(
      ERROR_CODES.SCHEMA_VIOLATION,
      `The parameter schema of tool "${toolName}" is not a valid JSON Schema (${reason}); fix the tool's schema.`,
      { details: [{ path: '/parameters', message: reason }], cause },
    );
  }
}
