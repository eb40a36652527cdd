/** Number written with Arabic digits or Chinese numerals (一…九十九, 两, 〇, 百). */
export const NUMBER_PATTERN = '(?:\\d{1,4}|[零〇一二两三四五六七八九十百]{1,6})';

const CHINESE_DIGITS: Readonly<Record<string, number>> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};

/**
 * Reads a number written with digits or Chinese numerals: 十五 → 15, 二十 → 20, 一百零五 → 105, and a run
 * of digit characters without units as digits (二〇二六 → 2026, 零五 → 5). Undefined for anything else.
 */
export function parseSpokenNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number.parseInt(text, 10);
  if (!/^[零〇一二两三四五六七八九十百]+$/.test(text)) return undefined;
  if (!/[十百]/.test(text)) {
    let digits = '';
    for (const char of text) digits += String(CHINESE_DIGITS[char]);
    return Number.parseInt(digits, 10);
  }
  let total = 0;
  let current = 0;
  for (const char of text) {
    if (char === '百') {
      total += (current || 1) * 100;
      current = 0;
    } else if (char === '十') {
      total += (current || 1) * 10;
      current = 0;
    } else {
      current = CHINESE_DIGITS[char]!;
    }
  }
  return total + current;
}

/** English number words the rules accept besides digits. */
export const ENGLISH_NUMBER_PATTERN =
  '(?:\\d{1,4}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty-five|forty|sixty|ninety)';

const ENGLISH_NUMBERS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  'forty-five': 45,
  sixty: 60,
  ninety: 90,
};

/** Reads digits or one of the English number words above. */
export function parseEnglishNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number.parseInt(text, 10);
  return ENGLISH_NUMBERS[text.toLowerCase()];
}
