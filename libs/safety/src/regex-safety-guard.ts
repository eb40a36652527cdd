import {
  REGEX_QUANTIFIER,
  RegexShapeRefusal,
  readRegexAtom,
  type RegexAtom,
  type RegexSequence,
} from './regex-atoms.js';

/**
 * The one ReDoS guard of Talon, for every regular expression that comes from outside: JSON Schema
 * `pattern`s of tool parameters (MCP servers, components), `grep` patterns from the model, and skill
 * activation patterns from installed SKILL.md files. A static, deterministic check of the pattern's
 * shape, refusing what makes a backtracking engine (V8's Irregexp) explode:
 * - backreferences (`\1`, `\k<name>`), which no shape check can bound;
 * - a repeated group that itself contains a repeat: `(a+)+`, `(\w*\s?)*`, `((ab)*c)+`, `(x+y?){2,}`;
 * - a repeated group of alternatives that can match the same text: anything but distinct plain
 *   literals none of which is a prefix of another (`(a|aa)*`, `(\d|\w)+`, `(a|ab){2,}` refused;
 *   `(foo|bar)+` allowed);
 * - two adjacent repeats over the same atom or a catch-all (`\d+\d+`, `.*.*`, `\S+\w*`; complements
 *   such as `\S+\s*` are allowed);
 * - empty, unbalanced, nested deeper than {@link MAX_REGEX_GROUP_DEPTH} groups, or longer than the
 *   caller's cap.
 *
 * Why not a library: `safe-regex2` (5.1.2) only measures star height, so it passes `(a|a)*b`,
 * `(a|ab){2,}` and backreferences, and refuses the harmless `(?:x+)?`; `recheck` (4.5.0) is precise
 * about exponential cases but takes 1–700 ms per pattern in its JavaScript build (seconds cold), gives
 * `unknown` when its time budget runs out (so a decision would depend on machine load), calls
 * backreference patterns safe, and reports ordinary patterns such as `[a-z]+@[a-z]+\.com` as polynomial.
 * Talon checks synchronously (ajv compiles schemas synchronously) and must decide the same way on a
 * loaded CI machine, so the guard stays a small shape check; recheck is its test oracle instead (every
 * pattern of the test corpus that recheck finds exponential must be refused here).
 *
 * A shape check cannot prove a pattern linear: where the pattern comes from a user, the match itself
 * also runs under a bound — `grep` matches in a worker thread that is terminated at a deadline, skill
 * patterns run on at most 1,024 characters of a message.
 */

/** Why a pattern was refused. */
export type RegexRefusalReason =
  | 'empty'
  | 'too_long'
  | 'invalid'
  | 'backreference'
  | 'nested_quantifier'
  | 'overlapping_alternation'
  | 'adjacent_repeats'
  | 'unbalanced'
  | 'too_deep';

/** The guard's decision on one pattern. */
export type RegexSafetyVerdict =
  { safe: true } | { safe: false; reason: RegexRefusalReason; message: string };

/** Options of {@link checkRegexSafety}. */
export interface RegexSafetyOptions {
  /** Longest source accepted. Default {@link DEFAULT_MAX_REGEX_LENGTH}. */
  maxLength?: number;
  /** Flags the pattern will be compiled with, to check that it compiles. Default: none, or `u` if needed. */
  flags?: string;
}

/** Default cap on a pattern's length. */
export const DEFAULT_MAX_REGEX_LENGTH = 1_000;
/** Deepest nesting of groups read (deeper patterns are refused, and the reader never overflows its stack). */
export const MAX_REGEX_GROUP_DEPTH = 64;

const CATCH_ALL = new Set(['.', '\\S', '\\W', '\\D', '[\\s\\S]', '[\\S\\s]', '[^]']);
// Escapes that match no character in common with each other: `\S+\s*` cannot backtrack between them.
const COMPLEMENTS = new Map([
  ['\\s', '\\S'],
  ['\\S', '\\s'],
  ['\\w', '\\W'],
  ['\\W', '\\w'],
  ['\\d', '\\D'],
  ['\\D', '\\d'],
]);

function overlap(previous: string, next: string): boolean {
  if (COMPLEMENTS.get(previous) === next) return false;
  return previous === next || CATCH_ALL.has(previous) || CATCH_ALL.has(next);
}

/** Checks one pattern source (without slashes or flags). Never runs it. */
export function checkRegexSafety(source: string, options: RegexSafetyOptions = {}): RegexSafetyVerdict {
  const maxLength = options.maxLength ?? DEFAULT_MAX_REGEX_LENGTH;
  if (source.length === 0) return refuse('empty', 'the pattern is empty');
  if (source.length > maxLength)
    return refuse('too_long', `the pattern has ${source.length} characters (at most ${maxLength})`);
  const compiled = compile(source, options.flags);
  if (typeof compiled === 'string') return refuse('invalid', `the pattern does not compile: ${compiled}`);
  try {
    readRegexSequence(compiled.source, { index: 0 }, 0);
  } catch (error) {
    if (error instanceof RegexShapeRefusal) return refuse(error.reason, error.message);
    throw error;
  }
  return { safe: true };
}

function compile(source: string, flags: string | undefined): RegExp | string {
  const attempts = flags === undefined ? ['', 'u'] : [flags];
  let message = '';
  for (const attempt of attempts) {
    try {
      return new RegExp(source, attempt);
    } catch (error) {
      message = (error as Error).message;
    }
  }
  return message;
}

function refuse(reason: RegexRefusalReason, message: string): RegexSafetyVerdict {
  return { safe: false, reason, message };
}

/**
 * Reads (and checks) one sequence of a pattern from `pos.index` up to its closing parenthesis at
 * `depth` > 0, or to the end at depth 0; throws {@link RegexShapeRefusal} on a refused shape. Exported
 * for readers of patterns that already passed the guard (the skill selector's literal prefilter).
 */
export function readRegexSequence(src: string, pos: { index: number }, depth: number): RegexSequence {
  const atoms: RegexAtom[] = [];
  let repeat = false;
  let alternation = false;
  const alternatives: string[] = [];
  let current = '';
  let currentIsLiteral = true;
  let previousRepeated: string | undefined;
  if (depth > MAX_REGEX_GROUP_DEPTH)
    throw new RegexShapeRefusal('too_deep', `groups nested more than ${MAX_REGEX_GROUP_DEPTH} deep`);
  const inner = (text: string, at: { index: number }) => readRegexSequence(text, at, depth + 1);
  while (pos.index < src.length) {
    const char = src[pos.index]!;
    if (char === ')') {
      if (depth === 0) throw new RegexShapeRefusal('unbalanced', 'unbalanced parenthesis');
      break;
    }
    if (char === '|') {
      alternation = true;
      alternatives.push(currentIsLiteral ? current : '\u0000');
      current = '';
      currentIsLiteral = true;
      previousRepeated = undefined;
      pos.index++;
      continue;
    }
    const atom = readRegexAtom(src, pos, inner);
    const quantifier = REGEX_QUANTIFIER.exec(src.slice(pos.index));
    let repeating = false;
    if (quantifier) {
      pos.index += quantifier[0].length;
      const [whole, count, comma, max] = quantifier;
      repeating =
        whole[0] === '*' ||
        whole[0] === '+' ||
        (whole[0] === '{' && comma !== undefined && (max === '' || Number(max) > 1)) ||
        (whole[0] === '{' && comma === undefined && Number(count) > 1);
    }
    if (repeating) {
      if (atom.innerRepeat)
        throw new RegexShapeRefusal(
          'nested_quantifier',
          `nested quantifier: "${atom.text}" repeats something that already repeats`,
        );
      if (atom.hasAlternation && !safeAlternatives(atom.alternatives))
        throw new RegexShapeRefusal(
          'overlapping_alternation',
          `repeated alternation with overlapping branches: "${atom.text}"`,
        );
      if (previousRepeated !== undefined && overlap(previousRepeated, atom.text))
        throw new RegexShapeRefusal(
          'adjacent_repeats',
          `adjacent repeats over overlapping atoms: "${previousRepeated}" then "${atom.text}"`,
        );
      repeat = true;
      previousRepeated = atom.text;
      currentIsLiteral = false;
    } else {
      previousRepeated = quantifier ? previousRepeated : undefined;
      if (quantifier) currentIsLiteral = false;
      else if (atom.literal !== undefined) current += atom.literal;
      else currentIsLiteral = false;
    }
    if (atom.innerRepeat) repeat = true;
    atoms.push(atom);
  }
  alternatives.push(currentIsLiteral ? current : '\u0000');
  return { atoms, repeat, alternation, literalAlternatives: alternation ? alternatives : undefined };
}

/** Repeated alternation is safe only between distinct plain literals none of which is a prefix of another. */
function safeAlternatives(alternatives: string[] | undefined): boolean {
  if (!alternatives) return false;
  if (alternatives.some((alt) => alt === '' || alt.includes('\u0000'))) return false;
  const lowered = alternatives.map((alt) => alt.toLowerCase());
  return lowered.every((alt, i) => lowered.every((other, j) => i === j || !other.startsWith(alt)));
}
