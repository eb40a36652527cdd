import { Ajv, type ErrorObject, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { JSONPath } from 'jsonpath-plus';
import type { ToolDefinition } from '@talon/contracts';
import { ParamsInvalidError, guardedRegExpEngine, type ParamViolation, type Tool } from '@talon/tool-runtime';
import { InvalidJsonSchemaError } from './errors/invalid-json-schema-error.js';
import { JsonPathError } from './errors/json-path-error.js';
import { parseJsonText } from './json-text.js';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv | Ajv2020,
) => unknown;

/** Operations of the `json` tool. */
export const JSON_OPERATIONS = ['parse', 'query', 'validate'] as const;
/** One `json` operation. */
export type JsonOperation = (typeof JSON_OPERATIONS)[number];

/** Most matches `query` returns unless `limit` says otherwise. */
export const DEFAULT_QUERY_LIMIT = 1000;
/** Most violations `validate` lists. */
export const MAX_VALIDATION_ERRORS = 100;

/** Params of `json`. */
export type JsonParams = {
  operation: JsonOperation;
  text?: string;
  data?: unknown;
  path?: string;
  schema?: Record<string, unknown>;
  limit?: number;
};

/** One JSONPath match. */
export interface JsonQueryMatch {
  /** JSONPath of the match, e.g. `$['items'][0]['name']`. */
  path: string;
  /** JSON Pointer of the match, e.g. `/items/0/name`. */
  pointer: string;
  value: unknown;
}

/** Options of the `json` tool. */
export interface JsonToolOptions {
  /**
   * `safe` (default) allows JSONPath filter expressions such as `[?(@.price < 10)]` through jsonpath-plus's
   * safe evaluator (no JavaScript `eval`, no function calls: see below); `off` refuses every filter and script.
   */
  filterExpressions?: 'safe' | 'off';
}

// Filters run synchronously: a call such as `@.s.match(/(a+)+$/)` or `@.s.repeat(1e9)` could hang or
// exhaust the worker where no timeout reaches it. Refuse anything that looks like a call inside the path.
const CALL_IN_PATH = /[\w$\])]\s*\(/;

const definition: ToolDefinition = {
  name: 'json',
  description:
    'Works with JSON. parse: read JSON text (errors give line and column). query: select values with a JSONPath ' +
    'such as "$.items[*].name" or "$..book[?(@.price < 10)]" from `data` or `text`. validate: check `data` or `text` ' +
    'against a JSON Schema and list the violations.',
  parameters: {
    type: 'object',
    properties: {
      operation: { type: 'string', enum: [...JSON_OPERATIONS] },
      text: {
        type: 'string',
        description: 'JSON text (parse; or the input of query/validate instead of data).',
      },
      data: { description: 'A JSON value to query or validate.' },
      path: {
        type: 'string',
        minLength: 1,
        maxLength: 1000,
        description: 'query only: the JSONPath expression.',
      },
      schema: { type: 'object', description: 'validate only: the JSON Schema.' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 10_000,
        default: DEFAULT_QUERY_LIMIT,
        description: 'query only: most matches.',
      },
    },
    required: ['operation'],
    additionalProperties: false,
  },
  effects: [],
  approval: 'never',
  timeoutMs: 5_000,
  domain: 'orchestrator',
  source: 'builtin',
  sensitiveParams: [],
  idempotent: true,
};

function missing(operation: string, key: string): ParamsInvalidError {
  return new ParamsInvalidError('json', [
    { path: `/${key}`, message: `is required for operation "${operation}"` },
  ]);
}

function inputOf(params: JsonParams): unknown {
  if (params.text !== undefined) return parseJsonText(params.text, 'text');
  if (params.data !== undefined) return params.data;
  throw new ParamsInvalidError('json', [
    { path: '/data', message: `data or text is required for operation "${params.operation}"` },
  ]);
}

function toViolation(error: ErrorObject): ParamViolation {
  const params = error.params as Record<string, unknown>;
  const path =
    error.keyword === 'required' && typeof params.missingProperty === 'string'
      ? `${error.instancePath}/${params.missingProperty}`
      : error.instancePath;
  return { path, message: error.message ?? 'is invalid' };
}

/** The `json` tool: parse, JSONPath query and JSON Schema validation, all without side effects. */
export function createJsonTool(options: JsonToolOptions = {}): Tool<JsonParams, unknown> {
  const filters = options.filterExpressions ?? 'safe';
  // Validation of caller data must not change it: no coercion, no defaults. Compiled schemas are removed
  // after each call, since every call brings a new schema object that ajv would otherwise cache forever.
  const ajvOptions: Options = {
    allErrors: true,
    strict: false,
    addUsedSchema: false,
    logger: false,
    code: { regExp: guardedRegExpEngine },
  };
  const draft07 = new Ajv(ajvOptions);
  const draft2020 = new Ajv2020(ajvOptions);
  addFormats(draft07);
  addFormats(draft2020);

  const query = (params: JsonParams): { count: number; truncated: boolean; matches: JsonQueryMatch[] } => {
    if (params.path === undefined) throw missing('query', 'path');
    const path = params.path;
    if (CALL_IN_PATH.test(path))
      throw new JsonPathError(path, 'function calls are not allowed in filter expressions');
    const json = inputOf(params);
    let found: { path: string; pointer: string; value: unknown }[];
    try {
      found = JSONPath({
        path,
        json: json as object,
        resultType: 'all',
        wrap: true,
        eval: filters === 'safe' ? 'safe' : false,
      }) as typeof found;
    } catch (error) {
      throw new JsonPathError(
        path,
        error instanceof Error ? error.message.replace(/^jsonPath:\s*/, '') : String(error),
      );
    }
    const limit = params.limit ?? DEFAULT_QUERY_LIMIT;
    return {
      count: found.length,
      truncated: found.length > limit,
      matches: found
        .slice(0, limit)
        .map((match) => ({ path: match.path, pointer: match.pointer, value: match.value })),
    };
  };

  const validate = (params: JsonParams): { valid: boolean; errors: ParamViolation[] } => {
    if (params.schema === undefined) throw missing('validate', 'schema');
    const data = inputOf(params);
    const ajv = String(params.schema.$schema ?? '').includes('2020-12') ? draft2020 : draft07;
    let check;
    try {
      check = ajv.compile(params.schema);
    } catch (error) {
      throw new InvalidJsonSchemaError(error instanceof Error ? error.message : String(error));
    } finally {
      ajv.removeSchema(params.schema);
    }
    const valid = check(data);
    return {
      valid,
      errors: valid ? [] : (check.errors ?? []).slice(0, MAX_VALIDATION_ERRORS).map(toViolation),
    };
  };

  return {
    definition,
    async execute(params) {
      switch (params.operation) {
        case 'parse': {
          if (params.text === undefined) throw missing('parse', 'text');
          const value = parseJsonText(params.text, 'text');
          return { value, type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value };
        }
        case 'query':
          return query(params);
        case 'validate':
          return validate(params);
      }
    },
  };
}
