/** The Agent Skills naming rules, shared by the parser, the installer and the registry. */

/** Longest allowed skill name. */
export const MAX_SKILL_NAME_LENGTH = 64;

const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Checks a skill name: lowercase ASCII letters, digits and single hyphens, at most 64 characters,
 * no leading or trailing hyphen. Returns the problem in words, or undefined when the name is valid.
 */
export function skillNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.length > MAX_SKILL_NAME_LENGTH)
    return `the name has ${name.length} characters (at most ${MAX_SKILL_NAME_LENGTH})`;
  if (name.startsWith('-') || name.endsWith('-')) return 'the name starts or ends with a hyphen';
  if (name.includes('--')) return 'the name contains a double hyphen';
  if (!NAME_PATTERN.test(name)) return 'the name may only contain lowercase letters, digits and hyphens';
  return undefined;
}

/** True when `name` follows the naming rules (and so cannot escape a directory). */
export function isValidSkillName(name: string): boolean {
  return skillNameProblem(name) === undefined;
}
