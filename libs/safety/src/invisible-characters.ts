/**
 * Characters that render as nothing and can be slipped inside a key to break a pattern match:
 * zero-width space/non-joiner/joiner, word joiner and invisible operators, BOM, soft hyphen, NUL,
 * Mongolian vowel separator, the bidirectional controls (LRM, RLM, ALM, embeddings, overrides and
 * isolates) and the Unicode tag characters (U+E0000–U+E007F, used to smuggle ASCII invisibly).
 */
export const INVISIBLE_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu;

/** Text with invisible characters removed, and where each remaining character came from. */
export interface VisibleText {
  text: string;
  /**
   * `offsets[i]` is the index in the original text of `text[i]`; one extra entry maps the end.
   * Undefined when nothing was removed (every index maps to itself).
   */
  offsets?: number[];
}

/** Removes invisible characters, keeping a map back to the original offsets. */
export function toVisibleText(original: string): VisibleText {
  INVISIBLE_CHARACTERS.lastIndex = 0;
  if (!INVISIBLE_CHARACTERS.test(original)) return { text: original };
  let text = '';
  const offsets: number[] = [];
  let last = 0;
  INVISIBLE_CHARACTERS.lastIndex = 0;
  for (
    let match = INVISIBLE_CHARACTERS.exec(original);
    match !== null;
    match = INVISIBLE_CHARACTERS.exec(original)
  ) {
    text += original.slice(last, match.index);
    for (let index = last; index < match.index; index += 1) offsets.push(index);
    last = match.index + match[0].length;
  }
  text += original.slice(last);
  for (let index = last; index < original.length; index += 1) offsets.push(index);
  offsets.push(original.length);
  return { text, offsets };
}

/** Maps a span `[start, end)` of the visible text back to the smallest span of the original covering it. */
export function originalSpan(
  visible: VisibleText,
  start: number,
  end: number,
): { start: number; end: number } {
  const { offsets } = visible;
  if (offsets === undefined) return { start, end };
  return {
    start: offsets[start],
    end: end === start ? offsets[start] : offsets[end - 1] + 1,
  };
}
