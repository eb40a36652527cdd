/**
 * The points of the hybrid score: `lexical` multiplies the BM25 relevance (0..1) every skill gets from its
 * name, description and headings; keyword, tag and pattern hits add capped boosts on top.
 */
export const SELECTION_SCORES = {
  lexical: 40,
  keyword: 10,
  keywordCap: 30,
  tag: 3,
  tagCap: 15,
  pattern: 20,
  patternCap: 40,
} as const;
