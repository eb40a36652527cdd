import type { SkillToolDeclaration } from '@talon/contracts';
import { SKILL_TEMPLATE_DIALECTS, type SkillTemplateDialect } from './skill-body-template.js';

/**
 * The `tools:` list of a workflow skill. Each entry is a name (`read_file`), a name marked optional with a
 * trailing `?` (`git_diff?`), or a mapping `{name, optional}`; a comma- or space-separated string works too.
 * Entries that are none of these are dropped with a warning. Duplicates keep the strictest marking.
 */
export function readDeclaredTools(value: unknown, warnings: string[]): SkillToolDeclaration[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [value];
  const byName = new Map<string, SkillToolDeclaration>();
  for (const item of items) {
    let name: string | undefined;
    let optional = false;
    if (typeof item === 'string') {
      const trimmed = item.trim();
      if (trimmed === '') continue;
      optional = trimmed.endsWith('?');
      name = optional ? trimmed.slice(0, -1) : trimmed;
    } else if (typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string') {
      name = (item as { name: string }).name.trim();
      optional = (item as { optional?: unknown }).optional === true;
    }
    if (name === undefined || !/^[A-Za-z0-9_.-]{1,128}$/.test(name)) {
      warnings.push(`tools entry ${JSON.stringify(item)} is not a tool name; ignored`);
      continue;
    }
    const known = byName.get(name);
    byName.set(name, { name, optional: known ? known.optional && optional : optional });
  }
  return [...byName.values()];
}

/** The `template` field: `jinja` or `mustache`; anything else is warned about and detection decides. */
export function readTemplateField(value: unknown, warnings: string[]): SkillTemplateDialect | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim().toLowerCase();
  if ((SKILL_TEMPLATE_DIALECTS as readonly string[]).includes(text)) return text as SkillTemplateDialect;
  warnings.push(`template "${String(value)}" is neither jinja nor mustache; the body's syntax decides`);
  return undefined;
}
