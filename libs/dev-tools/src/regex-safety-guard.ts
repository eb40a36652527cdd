import { UnsafePatternError } from './unsafe-pattern-error.js';

/**
 * Refuses regular expressions that can backtrack exponentially in JavaScript's engine: a
 * quantified group that itself contains a quantifier (`(a+)+`) or an alternation (`(a|a)*`), and
 * backreferences. This is a static check; grep also caps line length and time per file.
 */
export function assertSafeRegex(pattern: string, maxLength: number): void {
  if (pattern.length === 0) throw new UnsafePatternError(pattern, 'empty pattern');
  if (pattern.length > maxLength)
    throw new UnsafePatternError(pattern, `longer than ${maxLength} characters`);
  if (/\\[1-9]|\\k</.test(pattern)) throw new UnsafePatternError(pattern, 'backreference');
  // For each open group: whether it contains a quantifier or an alternation.
  const groups: { risky: boolean }[] = [];
  let inClass = false;
  for (let index = 0; index < pattern.length; index += 1) {
    const c = pattern[index]!;
    if (c === '\\') {
      index += 1;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') groups.push({ risky: false });
    else if (c === '|' && groups.length > 0) groups[groups.length - 1]!.risky = true;
    else if (isQuantifier(pattern, index) && groups.length > 0) groups[groups.length - 1]!.risky = true;
    else if (c === ')') {
      const group = groups.pop();
      if (group?.risky && isQuantifier(pattern, index + 1) && !isBoundedSmall(pattern, index + 1)) {
        throw new UnsafePatternError(pattern, 'nested quantifier or quantified alternation');
      }
      // A group inherits risk into its parent so `((a+))+` is caught too.
      if (group?.risky && groups.length > 0) groups[groups.length - 1]!.risky = true;
    }
  }
}

function isQuantifier(pattern: string, index: number): boolean {
  const c = pattern[index];
  return c === '*' || c === '+' || (c === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(index)));
}

/** `{0,1}` / `?`-like bounds cannot blow up; only unbounded or large repeats can. */
function isBoundedSmall(pattern: string, index: number): boolean {
  const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index));
  if (!match) return false;
  const upper = match[2] === undefined ? Number(match[1]) : match[3] === '' ? Infinity : Number(match[3]);
  return upper <= 1;
}
