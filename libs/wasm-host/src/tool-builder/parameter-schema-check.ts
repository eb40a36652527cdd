import { Ajv, type ValidateFunction } from 'ajv';

const ajv = new Ajv({ allErrors: true, strict: false });

/**
 * Why a tool's `schema()` is not usable as its parameters' JSON Schema (the orchestrator validates calls with
 * ajv, draft-07): not an object schema, or not a valid schema at all. Empty when it is fine.
 */
export function schemaProblems(parameters: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (parameters.type !== 'object')
    problems.push(
      `schema() must describe an object ("type": "object"), got type ${JSON.stringify(parameters.type)}`,
    );
  if (!ajv.validateSchema(parameters))
    problems.push(
      `schema() is not a valid JSON Schema: ${ajv.errorsText(ajv.errors, { dataVar: 'schema' })}`,
    );
  else {
    try {
      ajv.compile(parameters);
    } catch (error) {
      problems.push(`schema() does not compile as a JSON Schema: ${(error as Error).message}`);
    }
  }
  return problems;
}

/** A validator of the params a tool accepts (after {@link schemaProblems} found none). */
export function paramsValidator(parameters: Record<string, unknown>): ValidateFunction {
  return ajv.compile(parameters);
}
