import { Environment } from '@huggingface/jinja';
import { SKILL_TEMPLATE_LIMITS, type SkillTemplateLimit } from './skill-template-limit-error.js';

/** A value of the engine's runtime, as far as the sandbox looks at it. */
export type RuntimeValue = { type: string; value: unknown; __bool__(): { value: boolean } };

/** Thrown inside a render when a limit is hit; the template turns it into a SkillTemplateLimitError. */
export class LimitSignal extends Error {
  constructor(
    readonly limit: SkillTemplateLimit,
    readonly max: number,
  ) {
    super(limit);
  }
}

export function boundedRange(start: unknown, stop: unknown, step: unknown, maxItems: number): number[] {
  const [from, to] = stop === undefined || stop === null ? [0, Number(start)] : [Number(start), Number(stop)];
  const by = step === undefined || step === null ? 1 : Number(step);
  if (![from, to, by].every(Number.isFinite) || by === 0)
    throw new Error('range() needs finite numbers and a step other than zero');
  const count = Math.max(0, Math.ceil((to - from) / by));
  if (count > maxItems) throw new LimitSignal(SKILL_TEMPLATE_LIMITS.items, maxItems);
  return Array.from({ length: count }, (_, index) => from + index * by);
}

export function boundedJoin(
  environment: Environment,
  operand: RuntimeValue,
  args: RuntimeValue[],
  maxChars: number,
): RuntimeValue {
  const separator = args[0] === undefined ? '' : String(args[0].value);
  const items = Array.isArray(operand.value)
    ? (operand.value as RuntimeValue[]).map((item) => runtimeText(item))
    : typeof operand.value === 'string'
      ? [...operand.value]
      : undefined;
  if (items === undefined) throw new Error(`cannot join a ${operand.type}`);
  const size = items.reduce((sum, item) => sum + item.length, 0) + separator.length * (items.length - 1);
  if (size > maxChars) throw new LimitSignal(SKILL_TEMPLATE_LIMITS.output, maxChars);
  return toRuntime(environment, items.join(separator));
}

export function boundedReplace(
  environment: Environment,
  operand: RuntimeValue,
  args: RuntimeValue[],
  maxChars: number,
): RuntimeValue {
  if (typeof operand.value !== 'string') throw new Error(`cannot replace in a ${operand.type}`);
  const [search, replacement, count] = args;
  if (search === undefined || replacement === undefined)
    throw new Error('replace needs the text to find and its replacement');
  const text = operand.value;
  const find = String(search.value);
  const by = String(replacement.value);
  const limit = count === undefined ? Infinity : Number(count.value);
  const parts = text.split(find);
  const replaced = Math.min(parts.length - 1, limit);
  if (text.length + replaced * (by.length - find.length) > maxChars)
    throw new LimitSignal(SKILL_TEMPLATE_LIMITS.output, maxChars);
  if (replaced === parts.length - 1) return toRuntime(environment, parts.join(by));
  return toRuntime(
    environment,
    parts.slice(0, replaced + 1).join(by) + find + parts.slice(replaced + 1).join(find),
  );
}

/** How a value prints inside a join (strings as they are, other values as the engine prints them). */
function runtimeText(value: RuntimeValue): string {
  return typeof value.value === 'string' ? value.value : String(value);
}

export const StringValue = (new Environment().set('text', '') as object).constructor as new (
  value: string,
) => RuntimeValue;

/** A JSON value as one of the engine's runtime values. */
export function toRuntime(environment: Environment, value: unknown): RuntimeValue {
  if (typeof value === 'string') return new StringValue(value);
  return new Environment(environment).set('value', value) as unknown as RuntimeValue;
}

/** A copy holding only JSON data (functions, symbols and non-finite numbers dropped), depth-limited. */
export function toInertJson(value: unknown, depth: number): unknown {
  if (depth > 16) return undefined;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value))
    return value.map((item) => toInertJson(item, depth + 1)).filter((item) => item !== undefined);
  if (typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const inert = toInertJson(item, depth + 1);
      if (inert !== undefined) Object.defineProperty(copy, key, { value: inert, enumerable: true });
    }
    return copy;
  }
  return undefined;
}
