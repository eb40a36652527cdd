/** A quantifier at the start of the rest of a pattern (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, lazy or not). */
export const REGEX_QUANTIFIER = /^(?:[*+?]|\{(\d+)(?:(,)(\d*))?\})\??/;

/** One atom of a regular expression source: a character, an escape, a class or a group. */
export interface RegexAtom {
  text: string;
  /** Contains a repeating quantifier somewhere inside (groups only). */
  innerRepeat: boolean;
  /** Literal alternatives when the atom is a group of plain-literal alternatives. */
  alternatives?: string[];
  hasAlternation: boolean;
  /** The literal character when the atom is one. */
  literal?: string;
}

/** What reading a sequence found: its atoms, and whether it repeats or alternates anywhere. */
export interface RegexSequence {
  atoms: RegexAtom[];
  repeat: boolean;
  alternation: boolean;
  literalAlternatives: string[] | undefined;
}

/** Thrown by a sequence check (see `readRegexSequence`) to refuse a pattern, with the reason. */
export class RegexShapeRefusal extends Error {
  constructor(
    readonly reason:
      | 'backreference'
      | 'nested_quantifier'
      | 'overlapping_alternation'
      | 'adjacent_repeats'
      | 'unbalanced'
      | 'too_deep',
    message: string,
  ) {
    super(message);
  }
}

/** Reads one atom at `pos.index` and moves past it; `onSequence` reads the inside of a group. */
export function readRegexAtom(
  src: string,
  pos: { index: number },
  onSequence: (src: string, pos: { index: number }) => RegexSequence,
): RegexAtom {
  const start = pos.index;
  const char = src[pos.index]!;
  if (char === '\\') {
    const next = src[pos.index + 1] ?? '';
    if (/[1-9]/.test(next) || next === 'k')
      throw new RegexShapeRefusal('backreference', 'backreferences are not allowed');
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
    const inner = onSequence(src, pos);
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
