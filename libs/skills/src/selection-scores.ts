/** The scores and caps of the deterministic tier. */
export const SELECTION_SCORES = {
  exactKeyword: 10,
  substringKeyword: 5,
  keywordCap: 30,
  tag: 3,
  tagCap: 15,
  pattern: 20,
  patternCap: 40,
} as const;
