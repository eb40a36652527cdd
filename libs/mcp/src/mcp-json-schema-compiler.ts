import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type {
  jsonSchemaValidator,
  JsonSchemaType,
  JsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';

/** Schemas larger than this (serialised) are refused: a server cannot make Talon compile megabytes. */
export const MAX_SCHEMA_BYTES = 256 * 1024;

/** A compiled schema, or the reason a server's schema cannot be used. */
export type SchemaCompileResult = { ok: true; validate: ValidateFunction } | { ok: false; reason: string };

type AjvInstance = Ajv | Ajv2019 | Ajv2020;
type FormatsPlugin = (ajv: AjvInstance) => unknown;
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as unknown as FormatsPlugin;

/**
 * Compiles the JSON Schemas MCP servers declare (input and output schemas), choosing the draft from
 * `$schema` (2020-12, 2019-09, otherwise draft-07). Never throws: a schema that is not valid JSON Schema
 * yields a reason, which makes the tool unusable instead of crashing the connection.
 */
export class McpJsonSchemaCompiler implements jsonSchemaValidator {
  private readonly drafts = new Map<string, AjvInstance>();

  compile(schema: unknown): SchemaCompileResult {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      return { ok: false, reason: 'the schema is not a JSON object' };
    }
    let size: number;
    try {
      size = JSON.stringify(schema).length;
    } catch {
      return { ok: false, reason: 'the schema cannot be serialised as JSON' };
    }
    if (size > MAX_SCHEMA_BYTES)
      return { ok: false, reason: `the schema is ${size} bytes, over the ${MAX_SCHEMA_BYTES}-byte limit` };
    const draft = this.draftFor((schema as { $schema?: unknown }).$schema);
    try {
      const { $id: _ignoredId, ...withoutId } = schema as Record<string, unknown>;
      return { ok: true, validate: draft.compile(withoutId) };
    } catch (error) {
      return { ok: false, reason: `the schema is not valid JSON Schema: ${(error as Error).message}` };
    }
  }

  /** The SDK's validator hook (used for tool output schemas); an unusable schema rejects every value. */
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const compiled = this.compile(schema);
    return (input: unknown) => {
      if (!compiled.ok)
        return { valid: false, data: undefined, errorMessage: `output schema unusable: ${compiled.reason}` };
      return compiled.validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: describeSchemaErrors(compiled.validate.errors) };
    };
  }

  private draftFor($schema: unknown): AjvInstance {
    const key =
      typeof $schema === 'string' && $schema.includes('2020-12')
        ? '2020'
        : typeof $schema === 'string' && $schema.includes('2019-09')
          ? '2019'
          : '07';
    let ajv = this.drafts.get(key);
    if (!ajv) {
      // ids are stripped and schemas are compiled per tool, so nothing is cached by $id across servers.
      const options = { strict: false, allErrors: true, validateSchema: true, addUsedSchema: false } as const;
      ajv = key === '2020' ? new Ajv2020(options) : key === '2019' ? new Ajv2019(options) : new Ajv(options);
      addFormats(ajv);
      this.drafts.set(key, ajv);
    }
    return ajv;
  }
}

/** A short readable list of schema violations. */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'the value does not match the schema';
  return errors
    .slice(0, 10)
    .map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`)
    .join('; ');
}
