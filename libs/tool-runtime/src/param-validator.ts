import { createHash } from 'node:crypto';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { InvalidToolSchemaError } from './errors/invalid-tool-schema-error.js';
import { ParamsInvalidError, type ParamViolation } from './errors/params-invalid-error.js';
import { canonicalJson } from './canonical-json.js';
import { guardedRegExpEngine } from './regexp-guard.js';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv | Ajv2019 | Ajv2020,
) => unknown;

/** Options of {@link ParamValidator}. */
export interface ParamValidatorOptions {
  /** Most distinct compiled schemas kept; the oldest is dropped beyond it. Default 2000. */
  maxCachedSchemas?: number;
  /** Most violations reported per call. Default 20. */
  maxViolations?: number;
}

/** Default of {@link ParamValidatorOptions.maxCachedSchemas}. */
export const DEFAULT_MAX_CACHED_SCHEMAS = 2000;
/** Default of {@link ParamValidatorOptions.maxViolations}. */
export const DEFAULT_MAX_VIOLATIONS = 20;

const AJV_OPTIONS: Options = {
  coerceTypes: true,
  useDefaults: true,
  removeAdditional: false,
  allErrors: true,
  // Tolerant: unknown keywords and formats (common in MCP schemas) are ignored, but a schema that breaks
  // its meta-schema (e.g. `type: "strng"`) still fails to compile.
  strict: false,
  // Schemas with an `$id` must not clash with each other inside the shared instance.
  addUsedSchema: false,
  logger: false,
  // `pattern` runs synchronously: refuse ReDoS shapes when the schema compiles, not when a call hangs.
  code: { regExp: guardedRegExpEngine },
};

type Draft = 'draft-07' | '2019-09' | '2020-12';
type AjvInstance = Ajv | Ajv2019 | Ajv2020;

function draftOf(schema: Record<string, unknown>): Draft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  return 'draft-07';
}

function toViolation(error: ErrorObject): ParamViolation {
  let path = error.instancePath;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string')
    path += `/${params.missingProperty}`;
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return { path: `${path}/${params.additionalProperty}`, message: 'is not allowed (unknown property)' };
  }
  return { path, message: error.message ?? 'is invalid' };
}

/**
 * Validates and coerces tool params with ajv (`coerceTypes`, `useDefaults`, no removal of unknown keys).
 * Each schema is compiled once: looked up by object identity first, then by a hash of its canonical JSON,
 * so a catalog refresh that hands over equal-but-new schema objects does not recompile.
 * Validation coerces and fills defaults in place: the params object passed in is the one returned.
 */
export class ParamValidator {
  private readonly instances = new Map<Draft, AjvInstance>();
  private readonly byIdentity = new WeakMap<object, ValidateFunction>();
  private readonly byHash = new Map<
    string,
    { validate: ValidateFunction; ajv: AjvInstance; schema: object }
  >();
  private readonly maxCachedSchemas: number;
  private readonly maxViolations: number;

  constructor(options: ParamValidatorOptions = {}) {
    this.maxCachedSchemas = options.maxCachedSchemas ?? DEFAULT_MAX_CACHED_SCHEMAS;
    this.maxViolations = options.maxViolations ?? DEFAULT_MAX_VIOLATIONS;
  }

  /** Compiles (or finds) the validator of `schema`; throws {@link InvalidToolSchemaError} if ajv rejects it. */
  compile(toolName: string, schema: Record<string, unknown>): ValidateFunction {
    const known = this.byIdentity.get(schema);
    if (known) return known;
    const hash = createHash('sha256').update(canonicalJson(schema)).digest('hex');
    const cached = this.byHash.get(hash);
    if (cached) {
      this.byIdentity.set(schema, cached.validate);
      return cached.validate;
    }
    const ajv = this.instanceFor(draftOf(schema));
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      throw new InvalidToolSchemaError(
        toolName,
        error instanceof Error ? error.message : String(error),
        error,
      );
    }
    this.remember(hash, { validate, ajv, schema });
    this.byIdentity.set(schema, validate);
    return validate;
  }

  /**
   * Coerces and validates `params` against `schema`; returns the (same, coerced) params or throws
   * {@link ParamsInvalidError} listing the violations.
   */
  validate<T = Record<string, unknown>>(
    toolName: string,
    schema: Record<string, unknown>,
    params: unknown,
  ): T {
    const validate = this.compile(toolName, schema);
    if (!validate(params)) {
      const errors = validate.errors ?? [];
      throw new ParamsInvalidError(toolName, errors.slice(0, this.maxViolations).map(toViolation));
    }
    return params as T;
  }

  /** Number of distinct schemas compiled and cached. */
  get cachedSchemas(): number {
    return this.byHash.size;
  }

  private remember(
    hash: string,
    entry: { validate: ValidateFunction; ajv: AjvInstance; schema: object },
  ): void {
    this.byHash.set(hash, entry);
    if (this.byHash.size <= this.maxCachedSchemas) return;
    const [oldestHash, oldest] = this.byHash.entries().next().value as [string, typeof entry];
    this.byHash.delete(oldestHash);
    // ajv keeps its own cache keyed by schema object; drop it so memory stays bounded.
    oldest.ajv.removeSchema(oldest.schema);
  }

  private instanceFor(draft: Draft): AjvInstance {
    let ajv = this.instances.get(draft);
    if (!ajv) {
      ajv =
        draft === '2020-12'
          ? new Ajv2020(AJV_OPTIONS)
          : draft === '2019-09'
            ? new Ajv2019(AJV_OPTIONS)
            : new Ajv(AJV_OPTIONS);
      addFormats(ajv);
      this.instances.set(draft, ajv);
    }
    return ajv;
  }
}
