import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { SchemaViolationError, type SchemaViolation } from './errors/schema-violation-error.js';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();

function toViolations(errors: ErrorObject[] | null | undefined): SchemaViolation[] {
  return (errors ?? []).slice(0, 20).map((error) => ({
    path: error.instancePath,
    message: error.message ?? 'is invalid',
  }));
}

/**
 * Validates a wire payload against its JSON Schema (compiled once per schema object).
 * Returns the payload typed; throws SchemaViolationError listing every violation.
 */
export function validatePayload<T>(schema: TSchema, payload: unknown, what = 'The request'): T {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (!validate(payload)) throw new SchemaViolationError(what, toViolations(validate.errors));
  return payload as T;
}
