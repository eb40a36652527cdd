import type { ScheduleLanguage } from '@talon/contracts';

/** The parser reads at most this many characters; longer text is answered without matching. */
export const MAX_SCHEDULE_TEXT_CHARS = 2000;

/** Marks text a rule has consumed. Never present after normalisation, and `\s` does not match it. */
export const CONSUMED = '\u0001';

// Control, zero-width, bidi-override and line/paragraph separator characters become spaces.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

// Contractions that carry both a day (or recurrence) and a time of day, spelled out so that one rule for
// each part applies. Only schedule words are rewritten; they are removed from the task text anyway.
const CONTRACTIONS: ReadonlyArray<[RegExp, string]> = [
  [/今晚/g, '今天晚上'],
  [/今早/g, '今天早上'],
  [/明早/g, '明天早上'],
  [/明晚/g, '明天晚上'],
  [/每晚/g, '每天晚上'],
  [/每早/g, '每天早上'],
  [/\btonight\b/gi, 'today at night'],
  [/\bnightly\b/gi, 'every night'],
];

/**
 * Prepares a message for the rules: NFKC (full-width digits, colons and letters become ASCII), invisible
 * and control characters become spaces, and the contractions above are spelled out. Linear in the length.
 */
export function normalizeScheduleText(text: string): string {
  let normalized = text.normalize('NFKC').replace(INVISIBLE, ' ');
  for (const [pattern, replacement] of CONTRACTIONS) normalized = normalized.replace(pattern, replacement);
  return normalized;
}

const HAN = /\p{Script=Han}/u;

/** Chinese when the message holds any Han character, else English. */
export function detectLanguage(text: string): ScheduleLanguage {
  return HAN.test(text) ? 'zh' : 'en';
}

/** Overwrites `[start, end)` with {@link CONSUMED} so later rules cannot match across or inside it. */
export function consume(text: string, start: number, end: number): string {
  return text.slice(0, start) + CONSUMED.repeat(end - start) + text.slice(end);
}
