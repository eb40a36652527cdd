import { ToolFailedError } from '@talon/tool-runtime';

/** The `json` tool was asked to validate against a schema that does not compile. */
export class InvalidJsonSchemaError extends ToolFailedError {
  constructor(problem: string) {
    super(`The schema given to validate against is not a usable JSON Schema: ${problem}. Fix the schema.`, {
      details: { reason: 'invalid_json_schema' },
    });
  }
}
