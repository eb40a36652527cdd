import { checkRegexSafety, readRegexAtom, readRegexSequence, REGEX_QUANTIFIER } from '@talon/safety';
/**
 * Skill patterns come from files that may be hostile (installed skills), so every pattern is checked
 * at parse time by Talon's one ReDoS guard (`checkRegexSafety` of `@talon/safety`: backreferences,
 * nested repeats, overlapping repeated alternatives, adjacent overlapping repeats refused), limited to
 * {@link MAX_PATTERN_LENGTH} characters, and every match runs on a capped input.
 */

/** Longest pattern source accepted. */
export const MAX_PATTERN_LENGTH = 200;
/** Default number of characters of a message a pattern is run against (keywords see far more, see the selector). */
export const DEFAULT_MATCH_INPUT_CAP = 1024;

/** Why a pattern was refused: `invalid_regex` does not compile, `unsafe_regex` could backtrack badly. */
export type PatternProblem = { reason: 'invalid_regex' | 'unsafe_regex'; message: string };

/** A pattern that passed the guard. */
export interface GuardedPattern {
  /** The pattern as written. */
  readonly source: string;
  /** Compiled, case-insensitive. */
  readonly regex: RegExp;
  /**
   * A lowercase literal every match must contain, when one can be proven; selection uses it to skip
   * patterns whose literal is absent from the message without running them.
   */
  readonly requiredLiteral?: string;
}

/** Checks (with the shared ReDoS guard of `@talon/safety`) and compiles one pattern. */
export function guardPattern(
  source: string,
): { ok: true; pattern: GuardedPattern } | { ok: false; problem: PatternProblem } {
  const body = source.startsWith('(?i)') ? source.slice(4) : source;
  // The unicode flag only when the pattern needs it: it makes case-insensitive matching over twice as slow.
  const flags = /\\[pP]\{|\\u\{/.test(body) ? 'iu' : 'i';
  const verdict = checkRegexSafety(body, { maxLength: MAX_PATTERN_LENGTH, flags });
  if (!verdict.safe)
    return fail(verdict.reason === 'empty' || verdict.reason === 'invalid' ? 'invalid_regex' : 'unsafe_regex', verdict.message);
  const regex = new RegExp(body, flags);
  const requiredLiteral = hasTopLevelAlternation(regex.source) ? undefined : longestRequiredLiteral(regex.source);
  return { ok: true, pattern: { source, regex, ...(requiredLiteral ? { requiredLiteral } : {}) } };
}

/** Runs a guarded pattern against at most `cap` characters of already folded text. */
export function testGuarded(
  pattern: GuardedPattern,
  foldedText: string,
  cap = DEFAULT_MATCH_INPUT_CAP,
): boolean {
  pattern.regex.lastIndex = 0;
  return pattern.regex.test(foldedText.length > cap ? foldedText.slice(0, cap) : foldedText);
}

function fail(reason: PatternProblem['reason'], message: string) {
  return { ok: false as const, problem: { reason, message } };
}

function hasTopLevelAlternation(src: string): boolean {
  return readRegexSequence(src, { index: 0 }, 0).alternation;
}

/** The longest run of literal characters at the top level that every match must contain. */
function longestRequiredLiteral(src: string): string | undefined {
  let best = '';
  let run = '';
  const pos = { index: 0 };
  const flush = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  while (pos.index < src.length) {
    const atom = readRegexAtom(src, pos, (text, at) => readRegexSequence(text, at, 1));
    const quantifier = REGEX_QUANTIFIER.exec(src.slice(pos.index));
    if (quantifier) pos.index += quantifier[0].length;
    const usable = atom.literal !== undefined && isCaseStable(atom.literal);
    if (!usable) {
      flush();
      continue;
    }
    if (quantifier) {
      const optional = quantifier[0][0] === '?' || quantifier[0][0] === '*' || /^\{0/.test(quantifier[0]);
      if (!optional) run += atom.literal!.toLowerCase();
      flush();
      continue;
    }
    run += atom.literal!.toLowerCase();
  }
  flush();
  return best.length >= 2 ? best : undefined;
}

/** ASCII or caseless characters lowercase the same way under the `i` flag and under toLowerCase. */
function isCaseStable(char: string): boolean {
  return /^[\x20-\x7e]$/.test(char) || char.toLowerCase() === char.toUpperCase();
}
