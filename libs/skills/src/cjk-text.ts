/**
 * Chinese, Japanese and Korean text has no spaces between words, so it is matched without word
 * boundaries and compared by character bigrams. These helpers classify characters and split text.
 */

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/gu;
const LATIN_WORD = /[\p{L}\p{N}]+(?:['_.+#-][\p{L}\p{N}]+)*/gu;

/** True when the character is Han, Hiragana, Katakana or Hangul. */
export function isCjkChar(char: string): boolean {
  return CJK_CHAR.test(char);
}

/** True when the text contains at least one CJK character. */
export function containsCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/** Case- and width-folded form used for every comparison (NFKC folds full-width Latin to ASCII). */
export function foldText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * The weight of a term for the "terms under 3 characters are dropped" rule: a CJK character counts
 * as 2, anything else as 1. So `写作` (weight 4) is kept, `写` (2) and `ab` (2) are dropped.
 */
export function termWeight(term: string): number {
  let weight = 0;
  for (const char of term) weight += isCjkChar(char) ? 2 : 1;
  return weight;
}

/** The runs of consecutive CJK characters in (folded) text. */
export function cjkRuns(text: string): string[] {
  return text.match(CJK_RUN) ?? [];
}

/** Character bigrams of each CJK run; a one-character run yields itself. */
export function cjkBigrams(text: string): string[] {
  const grams: string[] = [];
  for (const run of cjkRuns(text)) {
    const chars = [...run];
    if (chars.length === 1) grams.push(run);
    for (let i = 0; i + 1 < chars.length; i++) grams.push(chars[i]! + chars[i + 1]!);
  }
  return grams;
}

/** Latin-script (non-CJK) words of folded text, with inner punctuation kept (`node.js`, `c++` stays `c`). */
export function latinWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(LATIN_WORD)) {
    if (!containsCjk(match[0])) words.push(match[0]);
    else for (const part of match[0].split(CJK_RUN)) if (part) words.push(part);
  }
  return words;
}
