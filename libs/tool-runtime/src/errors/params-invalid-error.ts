import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** One schema violation: a JSON Pointer into the params and what is wrong there. */
export interface ParamViolation {
  path: string;
  message: string;
}

/** The params of a call do not match the tool's JSON Schema; `details` lists the violations. */
export class ParamsInvalidError extends TalonError {
  declare readonly details: ParamViolation[];

  constructor(toolName: string, violations: ParamViolation[]) {
    const summary = violations
      .slice(0, 5)
      .map((violation) => `${violation.path || '(root)'} ${violation.message}`)
      .join('; ');
    super(
      ERROR_CODES.SCHEMA_VIOLATION,
      `Parameters of tool "${toolName}" do not match its schema: ${summary}. Fix them and call again.`,
      {
        details: violations,
      },
    );
  }
}
