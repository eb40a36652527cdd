/**
 * Skill patterns come from files that may be hostile (installed skills), so every pattern is checked
 * at parse time for the shapes that make a backtracking engine explode, and every match runs on a
 * capped input. The analysis is conservative and deterministic: no timers, no worker threads.
 *
 * Refused: backreferences; a repeated group that itself contains a repeat (`(a+)+`, `(\w*\s?)*`);
 * a repeated group with alternatives that overlap (`(a|aa)*`, `(x|\w)+`); two adjacent repeats over
 * the same or a catch-all atom (`\d+\d+`, `.*.*`); patterns longer than {@link MAX_PATTERN_LENGTH}.
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

interface Atom {
  text: string;
  /** Contains a repeating quantifier somewhere inside (groups only). */
  innerRepeat: boolean;
  /** Literal alternatives when the atom is a group of plain-literal alternatives. */
  alternatives?: string[];
  hasAlternation: boolean;
  /** The literal character when the atom is one. */
  literal?: string;
}

type Parsed = {
  atoms: Atom[];
  repeat: boolean;
  alternation: boolean;
  literalAlternatives: string[] | undefined;
};

class UnsafePattern extends Error {}

const QUANTIFIER = /^(?:[*+?]|\{(\d+)(?:(,)(\d*))?\})\??/;
const CATCH_ALL = new Set(['.', '\\S', '\\W', '\\D', '[\\s\\S]', '[\\S\\s]', '[^]']);

/** Checks and compiles one pattern. */
export function guardPattern(
  source: string,
): { ok: true; pattern: GuardedPattern } | { ok: false; problem: PatternProblem } {
  let body = source.startsWith('(?i)') ? source.slice(4) : source;
  if (body.length === 0) return fail('invalid_regex', 'the pattern is empty');
  if (body.length > MAX_PATTERN_LENGTH)
    return fail('unsafe_regex', `the pattern has ${body.length} characters (at most ${MAX_PATTERN_LENGTH})`);
  let regex: RegExp;
  // The unicode flag only when the pattern needs it: it makes case-insensitive matching over twice as slow.
  const flags = /\\[pP]\{|\\u\{/.test(body) ? 'iu' : 'i';
  try {
    regex = new RegExp(body, flags);
  } catch (error) {
    return fail('invalid_regex', `the pattern does not compile: ${(error as Error).message}`);
  }
  body = regex.source;
  let parsed: Parsed;
  try {
    parsed = parseSequence(body, { index: 0 }, 0);
  } catch (error) {
    if (error instanceof UnsafePattern) return fail('unsafe_regex', error.message);
    throw error;
  }
  const requiredLiteral = parsed.alternation ? undefined : longestRequiredLiteral(body);
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

function parseSequence(src: string, pos: { index: number }, depth: number): Parsed {
  const atoms: Atom[] = [];
  let repeat = false;
  let alternation = false;
  const alternatives: string[] = [];
  let current = '';
  let currentIsLiteral = true;
  let previousRepeated: string | undefined;
  while (pos.index < src.length) {
    const char = src[pos.index]!;
    if (char === ')') {
      if (depth === 0) throw new UnsafePattern('unbalanced parenthesis');
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
    const atom = readAtom(src, pos, depth);
    const quantifier = QUANTIFIER.exec(src.slice(pos.index));
    let repeating = false;
    if (quantifier) {
      pos.index += quantifier[0].length;
      const [whole, , comma, max] = quantifier;
      repeating =
        whole[0] === '*' ||
        whole[0] === '+' ||
        (whole[0] === '{' && comma !== undefined && (max === '' || Number(max) > 1));
      if (whole[0] === '{' && comma === undefined && Number(quantifier[1]) > 1) repeating = true;
    }
    if (repeating) {
      if (atom.innerRepeat)
        throw new UnsafePattern(`nested quantifier: "${atom.text}" repeats something that already repeats`);
      if (atom.hasAlternation && !safeAlternatives(atom.alternatives)) {
        throw new UnsafePattern(`repeated alternation with overlapping branches: "${atom.text}"`);
      }
      if (
        previousRepeated !== undefined &&
        (previousRepeated === atom.text || CATCH_ALL.has(previousRepeated) || CATCH_ALL.has(atom.text))
      ) {
        throw new UnsafePattern(
          `adjacent repeats over overlapping atoms: "${previousRepeated}" then "${atom.text}"`,
        );
      }
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

function readAtom(src: string, pos: { index: number }, depth: number): Atom {
  const start = pos.index;
  const char = src[pos.index]!;
  if (char === '\\') {
    const next = src[pos.index + 1] ?? '';
    if (/[1-9]/.test(next) || next === 'k') throw new UnsafePattern('backreferences are not allowed');
    pos.index += 2;
    if (next === 'u' || next === 'x' || next === 'c' || next === 'p' || next === 'P') {
      const rest = /^(?:\{[^}]*\}|[0-9a-fA-F]{2,4})/.exec(src.slice(pos.index));
      if (rest) pos.index += rest[0].length;
      return { text: src.slice(start, pos.index), innerRepeat: false, hasAlternation: false };
    }
    const literal = /[^a-zA-Z0-9]/.test(next) ? next : undefined;
    return {
      text: src.slice(start, pos.index),
      innerRepeat: false,
      hasAlternation: false,
      ...(literal ? { literal } : {}),
    };
  }
  if (char === '[') {
    pos.index++;
    if (src[pos.index] === '^') pos.index++;
    if (src[pos.index] === ']') pos.index++;
    while (pos.index < src.length && src[pos.index] !== ']') pos.index += src[pos.index] === '\\' ? 2 : 1;
    pos.index++;
    return { text: src.slice(start, pos.index), innerRepeat: false, hasAlternation: false };
  }
  if (char === '(') {
    pos.index++;
    const head = /^\?(?:[:=!]|<[=!]|<[A-Za-z_][A-Za-z0-9_]*>)/.exec(src.slice(pos.index));
    if (head) pos.index += head[0].length;
    const inner = parseSequence(src, pos, depth + 1);
    pos.index++;
    return {
      text: src.slice(start, pos.index),
      innerRepeat: inner.repeat,
      hasAlternation: inner.alternation,
      ...(inner.literalAlternatives ? { alternatives: inner.literalAlternatives } : {}),
    };
  }
  pos.index++;
  const plain = /[\^$.]/.test(char) ? undefined : char;
  return {
    text: char,
    innerRepeat: false,
    hasAlternation: false,
    ...(plain !== undefined ? { literal: plain } : {}),
  };
}

/** Repeated alternation is safe only between distinct plain literals none of which is a prefix of another. */
function safeAlternatives(alternatives: string[] | undefined): boolean {
  if (!alternatives) return false;
  if (alternatives.some((alt) => alt === '' || alt.includes('\u0000'))) return false;
  const lowered = alternatives.map((alt) => alt.toLowerCase());
  return lowered.every((alt, i) => lowered.every((other, j) => i === j || !other.startsWith(alt)));
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
    const atom = readAtom(src, pos, 0);
    const quantifier = QUANTIFIER.exec(src.slice(pos.index));
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
