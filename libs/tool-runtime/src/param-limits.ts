import { ParamsTooLargeError } from './errors/params-too-large-error.js';

/** Structural limits checked before schema validation, so a hostile payload cannot make ajv work hard. */
export interface ParamLimits {
  /** Estimated size of the params as UTF-8 JSON, in bytes. Default 256 KiB. */
  maxBytes?: number;
  /** Deepest nesting of objects and arrays. Default 32. */
  maxDepth?: number;
  /** Most keys in any one object. Default 1000. */
  maxKeys?: number;
  /** Longest array. Default 10 000. */
  maxArrayLength?: number;
}

/** Defaults of {@link ParamLimits}. */
export const DEFAULT_PARAM_LIMITS: Readonly<Required<ParamLimits>> = {
  maxBytes: 256 * 1024,
  maxDepth: 32,
  maxKeys: 1000,
  maxArrayLength: 10_000,
};

/** Fills in the defaults and rejects nonsense values. */
export function parseParamLimits(limits: ParamLimits = {}): Required<ParamLimits> {
  const merged = { ...DEFAULT_PARAM_LIMITS, ...limits };
  for (const [key, value] of Object.entries(merged)) {
    if (!Number.isInteger(value) || value < 1)
      throw new RangeError(`Param limit ${key} must be a positive integer, got ${value}`);
  }
  return merged;
}

/**
 * Walks the params once and throws {@link ParamsTooLargeError} at the first limit passed.
 * The byte count is an estimate of the JSON text (string escapes are not counted); it stops early,
 * so a huge payload costs no more than the limit. Cycles hit the depth limit.
 */
export function checkParamLimits(tool: string, params: unknown, limits: Required<ParamLimits>): void {
  let bytes = 0;
  // Path segments of the value being visited; joined only when a limit is hit.
  const segments: (string | number)[] = [];
  const fail = (limit: 'maxBytes' | 'maxDepth' | 'maxKeys' | 'maxArrayLength'): never => {
    throw new ParamsTooLargeError(
      tool,
      limit,
      limits[limit],
      segments.map((segment) => `/${segment}`).join(''),
    );
  };
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      bytes += Buffer.byteLength(value) + 2;
    } else if (value === null || typeof value !== 'object') {
      bytes += 8;
    } else {
      if (depth >= limits.maxDepth) fail('maxDepth');
      if (Array.isArray(value)) {
        if (value.length > limits.maxArrayLength) fail('maxArrayLength');
        bytes += 2 + value.length;
        for (let index = 0; index < value.length; index += 1) {
          segments.push(index);
          visit(value[index], depth + 1);
          segments.pop();
        }
      } else {
        let keys = 0;
        bytes += 2;
        for (const key in value) {
          if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
          keys += 1;
          if (keys > limits.maxKeys) fail('maxKeys');
          bytes += Buffer.byteLength(key) + 4;
          segments.push(key);
          visit((value as Record<string, unknown>)[key], depth + 1);
          segments.pop();
        }
      }
    }
    if (bytes > limits.maxBytes) fail('maxBytes');
  };
  visit(params, 0);
}
