import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { SkillParameter } from '@talon/contracts';
import { SkillParameterError } from './skill-parameter-error.js';

/** Where parameter values come from; decides coercion and how undeclared keys are treated. */
export const SKILL_PARAMETER_SOURCES = {
  /** `/command key=value`: every value is text and is coerced to the declared type. */
  command: 'command',
  /** A trigger's payload (webhook body, schedule settings): undeclared keys are ignored. */
  trigger: 'trigger',
  /** A hand's settings (text and toggles): coerced like command text; undeclared keys are ignored. */
  hand: 'hand',
  /** The model's `execute_skill` arguments. */
  executeSkill: 'execute_skill',
  /** An API caller. */
  api: 'api',
} as const;
/** One of {@link SKILL_PARAMETER_SOURCES}. */
export type SkillParameterSource = (typeof SKILL_PARAMETER_SOURCES)[keyof typeof SKILL_PARAMETER_SOURCES];

/** The one input shape every caller passes. */
export interface SkillParameterInput {
  source: SkillParameterSource;
  values: Readonly<Record<string, unknown>>;
  /** Copy object and array defaults, so a caller may change the values. Default true; renders pass false. */
  copyDefaults?: boolean;
}

/** The values a skill renders with. */
export interface FilledSkillParameters {
  /** Validated values with defaults applied (optional parameters without value or default are absent). */
  values: Record<string, unknown>;
  /** Required parameters with neither a value nor a default: ask for these. */
  missing: SkillParameter[];
  /** Undeclared keys that were dropped (trigger and hand sources only). */
  ignored: string[];
}

/** What the fill needs of a skill. */
export interface ParameterizedSkill {
  name: string;
  parameters: readonly SkillParameter[];
}

const strict = new Ajv({ allErrors: true, strict: false });
const coercing = new Ajv({ allErrors: true, strict: false, coerceTypes: 'array' });
const compiled = new WeakMap<readonly SkillParameter[], { strict: ValidateFunction; coercing: ValidateFunction }>();

/**
 * Fills a skill's declared parameters from one source: undeclared keys are refused (command, execute_skill,
 * api) or dropped (trigger, hand), command text and hand settings are coerced to the declared types (`days=3` → 3,
 * `areas=a,b` → ["a","b"], JSON for arrays and objects), defaults are applied, and everything is checked
 * with ajv against the declared type and `enum`. Throws {@link SkillParameterError} for a bad value;
 * required parameters still missing are returned in `missing`, so a chat can ask for them.
 */
export function fillSkillParameters(
  skill: ParameterizedSkill,
  input: SkillParameterInput,
): FilledSkillParameters {
  const declared = new Map(skill.parameters.map((parameter) => [parameter.name, parameter]));
  const values: Record<string, unknown> = {};
  const ignored: string[] = [];
  const lenientKeys = input.source === 'trigger' || input.source === 'hand';
  for (const [key, raw] of Object.entries(input.values)) {
    const parameter = declared.get(key);
    if (parameter === undefined) {
      if (lenientKeys) {
        ignored.push(key);
        continue;
      }
      throw new SkillParameterError(
        skill.name,
        key,
        `is not declared (the skill takes ${skill.parameters.map((entry) => entry.name).join(', ') || 'no parameters'})`,
      );
    }
    if (raw === undefined) continue;
    Object.defineProperty(values, key, {
      value: textual(input.source) ? fromCommandText(skill.name, parameter, raw) : raw,
      enumerable: true,
      writable: true,
    });
  }
  const missing: SkillParameter[] = [];
  for (const parameter of skill.parameters) {
    if (Object.prototype.hasOwnProperty.call(values, parameter.name)) continue;
    if (parameter.default !== undefined)
      values[parameter.name] =
        input.copyDefaults === false || typeof parameter.default !== 'object'
          ? parameter.default
          : structuredClone(parameter.default);
    else if (parameter.required) missing.push(parameter);
  }
  const validators = validatorsFor(skill.parameters);
  const validate = textual(input.source) ? validators.coercing : validators.strict;
  if (!validate(values)) throw toParameterError(skill, validate.errors ?? []);
  return { values, missing, ignored };
}

/** Sources whose values are text a person typed (a command, a hand's settings), so they are coerced. */
function textual(source: SkillParameterSource): boolean {
  return source === 'command' || source === 'hand';
}

function validatorsFor(parameters: readonly SkillParameter[]): {
  strict: ValidateFunction;
  coercing: ValidateFunction;
} {
  const known = compiled.get(parameters);
  if (known) return known;
  const schema = {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((parameter) => [
        parameter.name,
        { type: parameter.type, ...(parameter.enum ? { enum: parameter.enum } : {}) },
      ]),
    ),
  };
  const made = { strict: strict.compile(schema), coercing: coercing.compile(schema) };
  compiled.set(parameters, made);
  return made;
}

/** Command text to the declared type's shape before ajv coerces scalars: JSON for arrays/objects, commas. */
function fromCommandText(skill: string, parameter: SkillParameter, raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  if (parameter.type !== 'array' && parameter.type !== 'object') return raw;
  const text = raw.trim();
  if (text.startsWith('[') || text.startsWith('{')) {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new SkillParameterError(skill, parameter.name, `is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (parameter.type === 'array')
    return text === '' ? [] : text.split(',').map((item) => item.trim());
  return raw;
}

function toParameterError(skill: ParameterizedSkill, errors: readonly ErrorObject[]): SkillParameterError {
  const first = errors[0];
  const name = first?.instancePath.split('/')[1] ?? '(parameters)';
  const parameter = skill.parameters.find((entry) => entry.name === name);
  const problem =
    first?.keyword === 'enum' && parameter?.enum
      ? `must be one of ${parameter.enum.map((value) => JSON.stringify(value)).join(', ')}`
      : first?.keyword === 'type'
        ? `must be of type ${parameter?.type ?? String(first.params['type'])}`
        : (first?.message ?? 'is invalid');
  return new SkillParameterError(skill.name, name, problem);
}
