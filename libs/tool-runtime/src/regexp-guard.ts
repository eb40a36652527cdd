import type { RegExpEngine } from 'ajv/dist/types/index.js';

const QUANTIFIER_START = /[*+{]/;

function isQuantifierAt(source: string, index: number): boolean {
  const char = source[index];
  if (char === undefined || !QUANTIFIER_START.test(char)) return false;
  if (char !== '{') return true;
  // `{n}` repeats a fixed number of times; only `{n,}` and `{n,m}` can backtrack.
  return /^\{\d*,\d*\}/.test(source.slice(index));
}

/**
 * Whether a regular expression has a shape known for catastrophic backtracking: a quantified group that
 * itself contains a quantifier (`(a+)+`, `(\w*)*`, `(x+y?){2,}`) or a backreference. A conservative
 * heuristic: it may refuse a harmless pattern, it catches the classic ReDoS forms. JSON Schema `pattern`
 * runs synchronously, so a timeout cannot stop a runaway match.
 */
export function isCatastrophicPattern(source: string): boolean {
  const groups: boolean[] = []; // per open group: does it contain a quantifier?
  const markParent = (): void => {
    if (groups.length > 0) groups[groups.length - 1] = true;
  };
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (char === '\\') {
      if (/[1-9k]/.test(source[index + 1] ?? '')) return true;
      index += 1;
    } else if (char === '[') {
      // Skip the character class, honouring escapes inside it.
      index += 1;
      while (index < source.length && source[index] !== ']') index += source[index] === '\\' ? 2 : 1;
    } else if (char === '(') {
      groups.push(false);
    } else if (char === ')') {
      const inner = groups.pop() ?? false;
      const quantified = isQuantifierAt(source, index + 1);
      if (quantified && inner) return true;
      if (quantified || inner) markParent();
    } else if (isQuantifierAt(source, index)) {
      markParent();
    }
  }
  return false;
}

/** An ajv `code.regExp` engine that refuses catastrophic patterns at schema compile time. */
export const guardedRegExpEngine: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    if (isCatastrophicPattern(pattern)) {
      throw new Error(`pattern "${pattern.slice(0, 100)}" can backtrack catastrophically; simplify it`);
    }
    return new RegExp(pattern, flags);
  },
  { code: 'new RegExp' },
);
