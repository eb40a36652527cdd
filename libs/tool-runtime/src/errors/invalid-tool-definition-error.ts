import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { ParamViolation } from './params-invalid-error.js';

/** A tool definition does not match the ToolDefinition contract (unknown effect, bad timeout, …). */
export class InvalidToolDefinitionError extends TalonError {
  declare readonly details: ParamViolation[];

  constructor(toolName: string, violations: ParamViolation[]) {
    const summary = violations
      .slice(0, 5)
      .map((violation) => `${violation.path || '(root)'} ${violation.message}`)
      .join('; ');
    super(
      ERROR_CODES.SCHEMA_VIOLATION,
      `The definition of tool "${toolName}" is invalid: ${summary}. Fix the tool's definition.`,
      {
        details: violations,
      },
    );
  }
}
