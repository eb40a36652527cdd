import Mustache from 'mustache';
import type { SkillParameter } from '@talon/contracts';
import { JinjaTemplate, toInertJson, type JinjaLimits } from './jinja-sandbox.js';
import { SkillParameterError } from './skill-parameter-error.js';
import { fillSkillParameters, type SkillParameterInput } from './skill-parameters.js';

/** The template dialects a skill body may be written in. */
export const SKILL_TEMPLATE_DIALECTS = ['mustache', 'jinja'] as const;
/** One of {@link SKILL_TEMPLATE_DIALECTS}. */
export type SkillTemplateDialect = (typeof SKILL_TEMPLATE_DIALECTS)[number];

// Tags only Mustache has: sections, inverted sections, closers, unescaped, comments, partials.
const MUSTACHE_ONLY = /\{\{\s*[#^/&!>{]/;
// Jinja statements or comments, or an expression tag holding more than a dotted name (a filter, a call,
// an operator, a literal, a subscript).
const JINJA_STATEMENT = /\{%|\{#/;
const JINJA_EXPRESSION = /\{\{(?!\s*[#^/&!>{])((?:(?!\}\})[\s\S])*?)\}\}/g;
const PLAIN_NAME = /^\s*[A-Za-z_][\w.]*\s*$/;

/**
 * Which engine renders a body. The rule, in order:
 * 1. a `template: jinja | mustache` front-matter field decides;
 * 2. a body with a Mustache-only tag (`{{#…}}`, `{{^…}}`, `{{/…}}`, `{{{…}}}`, `{{&…}}`, `{{!…}}`, `{{>…}}`)
 *    is Mustache;
 * 3. a body with `{% … %}`, `{# … #}` or an expression tag that is more than a plain (dotted) name —
 *    a filter `|`, a call, an operator or a literal — is Jinja;
 * 4. anything else (only `{{ name }}` tags, or none) is Mustache, as every body was before Jinja existed;
 *    both engines print a plain name the same way.
 */
export function detectTemplateDialect(body: string, declared?: SkillTemplateDialect): SkillTemplateDialect {
  if (declared !== undefined) return declared;
  if (MUSTACHE_ONLY.test(body)) return 'mustache';
  if (JINJA_STATEMENT.test(body)) return 'jinja';
  for (const match of body.matchAll(JINJA_EXPRESSION)) if (!PLAIN_NAME.test(match[1]!)) return 'jinja';
  return 'mustache';
}

/** Options of {@link renderSkillBody}. */
export interface RenderSkillBodyOptions {
  /** The skill's `template` field. */
  template?: SkillTemplateDialect;
  /** Where the values come from (coercion, undeclared keys). Default `api`. */
  source?: SkillParameterInput['source'];
  /** Jinja sandbox limits. */
  limits?: Partial<JinjaLimits>;
  /**
   * A required parameter without value or default: `throw` {@link SkillParameterError} (default), or `ask` —
   * the body becomes an instruction to ask the user for the missing values (selection in a chat turn).
   */
  missing?: 'throw' | 'ask';
}

// Keyed by the body itself (the same string object every render, so its hash is computed once), then by skill.
const compiledJinja = new Map<string, Map<string, JinjaTemplate>>();
const MAX_CACHED_TEMPLATES = 512;

/**
 * Renders a skill body with its parameters. Values are filled and checked by {@link fillSkillParameters};
 * a required parameter still missing throws {@link SkillParameterError}. Jinja bodies render in the
 * sandbox of `jinja-sandbox.ts` (typed errors with the line). Mustache bodies render as they always did:
 * partials disabled, a view of JSON values on null-prototype objects (so `{{constructor}}` resolves to
 * nothing and no function is reachable as a lambda), no HTML escaping (the injection step escapes the body).
 *
 * A body is rendered only when the skill declares parameters or a `template` field; other bodies may
 * contain literal `{{…}}` text and are returned as they are.
 */
export function renderSkillBody(
  body: string,
  parameters: readonly SkillParameter[],
  values: Readonly<Record<string, unknown>> = {},
  skillName = 'skill',
  options: RenderSkillBodyOptions | SkillTemplateDialect = {},
): string {
  const settings: RenderSkillBodyOptions = typeof options === 'string' ? { template: options } : options;
  if (parameters.length === 0 && settings.template === undefined) return body;
  const filled = fillSkillParameters(
    { name: skillName, parameters },
    { source: settings.source ?? 'api', values, copyDefaults: false },
  );
  const [first] = filled.missing;
  if (first !== undefined && settings.missing === 'ask') return askForParameters(skillName, filled.missing);
  if (first !== undefined)
    throw new SkillParameterError(skillName, first.name, 'is required and has no default');
  if (detectTemplateDialect(body, settings.template) === 'jinja')
    return compileJinja(body, skillName).render(filled.values, settings.limits);
  return renderMustache(body, filled.values, skillName);
}

/** A cached compiled Jinja template (parsing is most of the cost of a render). */
export function compileJinja(body: string, skillName: string): JinjaTemplate {
  let bySkill = compiledJinja.get(body);
  let template = bySkill?.get(skillName);
  if (template === undefined) {
    template = JinjaTemplate.compile(body, skillName);
    if (bySkill === undefined) {
      if (compiledJinja.size >= MAX_CACHED_TEMPLATES) compiledJinja.delete(compiledJinja.keys().next().value!);
      bySkill = new Map();
      compiledJinja.set(body, bySkill);
    }
    bySkill.set(skillName, template);
  }
  return template;
}

/** The body of a skill that applies but lacks required parameters: ask the user, do not guess. */
function askForParameters(skillName: string, missing: readonly SkillParameter[]): string {
  const wanted = missing.map(
    (parameter) => `- ${parameter.name} (${parameter.type}${parameter.description ? `: ${parameter.description}` : ''})`,
  );
  return [
    `The skill "${skillName}" applies, but it needs these values before it can be used:`,
    ...wanted,
    'Ask the user for them and do not guess. Once they are given, the skill runs with them (for example as key=value after its command).',
  ].join('\n');
}

function renderMustache(body: string, values: Record<string, unknown>, skillName: string): string {
  const view: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(values)) view[name] = nullPrototype(toInertJson(value, 0));
  try {
    return Mustache.render(body, view, undefined, { escape: (text: unknown) => String(text) });
  } catch (error) {
    throw new SkillParameterError(skillName, '(template)', `cannot be rendered: ${(error as Error).message}`);
  }
}

/** The same JSON data on null prototypes, so Mustache's lookups find only own data. */
function nullPrototype(value: unknown): unknown {
  if (Array.isArray(value)) {
    const copy = value.map(nullPrototype);
    Object.setPrototypeOf(copy, null);
    return copy;
  }
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of Object.entries(value)) copy[key] = nullPrototype(item);
    return copy;
  }
  return value;
}
