import Mustache from 'mustache';
import type { SkillParameter } from '@talon/contracts';
import { SkillParameterError } from './skill-parameter-error.js';

/**
 * Renders a skill body's `{{parameters}}` with Mustache. Mustache is logic-less, and the sandbox is
 * completed here: partials are disabled (no template can pull in another template or a file), the view is
 * rebuilt from JSON values on null-prototype objects (so `{{constructor}}` and other inherited names
 * resolve to nothing and no function is ever reachable as a lambda), and HTML escaping is off because
 * the injection step escapes the whole body afterwards.
 *
 * Only skills that declare parameters are rendered; other bodies may contain literal `{{…}}` text.
 */
export function renderSkillBody(
  body: string,
  parameters: SkillParameter[],
  values: Record<string, unknown> = {},
  skillName = 'skill',
): string {
  if (parameters.length === 0) return body;
  const view: Record<string, unknown> = Object.create(null);
  for (const parameter of parameters) {
    const supplied = Object.prototype.hasOwnProperty.call(values, parameter.name)
      ? values[parameter.name]
      : undefined;
    const value = supplied === undefined ? parameter.default : supplied;
    if (value === undefined) {
      if (parameter.required)
        throw new SkillParameterError(skillName, parameter.name, 'is required and has no default');
      continue;
    }
    if (!matchesType(value, parameter.type))
      throw new SkillParameterError(skillName, parameter.name, `must be of type ${parameter.type}`);
    view[parameter.name] = toInertJson(value, 0);
  }
  try {
    return Mustache.render(body, view, undefined, { escape: (text: unknown) => String(text) });
  } catch (error) {
    throw new SkillParameterError(skillName, '(template)', `cannot be rendered: ${(error as Error).message}`);
  }
}

function matchesType(value: unknown, type: SkillParameter['type']): boolean {
  switch (type) {
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

/** A copy holding only JSON data, on null prototypes, depth-limited. */
function toInertJson(value: unknown, depth: number): unknown {
  if (depth > 8) return undefined;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value)) {
    const copy = value.slice(0, 1000).map((item) => toInertJson(item, depth + 1));
    Object.setPrototypeOf(copy, null);
    return copy;
  }
  if (typeof value === 'object') {
    const copy: Record<string, unknown> = Object.create(null);
    for (const [key, item] of Object.entries(value as Record<string, unknown>))
      copy[key] = toInertJson(item, depth + 1);
    return copy;
  }
  return undefined;
}
