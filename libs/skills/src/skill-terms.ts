import { foldText, termWeight } from './cjk-text.js';

/** At most this many activation keywords per skill. */
export const MAX_KEYWORDS = 20;
/** At most this many activation patterns per skill. */
export const MAX_PATTERNS = 5;
/** At most this many tags per skill. */
export const MAX_TAGS = 10;
/** Terms lighter than this are dropped (a CJK character weighs 2, anything else 1; see `termWeight`). */
export const MIN_TERM_WEIGHT = 3;

/**
 * Folds, trims, de-duplicates and caps a list of terms. Accepts an array or a comma-separated string.
 * Dropped and capped terms are reported in `warnings`.
 */
export function normaliseTerms(value: unknown, cap: number, label: string, warnings: string[]): string[] {
  const raw = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  const terms: string[] = [];
  for (const item of raw) {
    if (typeof item !== 'string' && typeof item !== 'number') continue;
    const term = foldText(String(item)).replace(/\s+/g, ' ').trim();
    if (term.length === 0 || terms.includes(term)) continue;
    if (termWeight(term) < MIN_TERM_WEIGHT) {
      warnings.push(`${label} "${term}" dropped: shorter than 3 characters`);
      continue;
    }
    terms.push(term);
  }
  if (terms.length > cap) {
    warnings.push(`${label}s capped at ${cap}; ${terms.length - cap} dropped`);
    terms.length = cap;
  }
  return terms;
}

/** A list of plain strings from an array or a space/comma-separated string (no folding). */
export function stringList(value: unknown): string[] {
  if (Array.isArray(value))
    return value
      .filter((item): item is string | number => typeof item === 'string' || typeof item === 'number')
      .map(String)
      .map((s) => s.trim())
      .filter(Boolean);
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return [];
}
