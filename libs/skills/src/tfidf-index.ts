import { cjkBigrams, foldText } from './cjk-text.js';

/** A document: an id chosen by the caller and the text that describes it. */
export interface TfidfDocument {
  id: number;
  text: string;
}

/** One similarity hit. */
export interface TfidfHit {
  id: number;
  /** Cosine similarity in [0, 1]. */
  similarity: number;
  /** The shared terms that contributed most, best first (at most 5). */
  terms: string[];
}

const STOPWORDS = new Set(
  'the and for with that this from you your are was were will would can could should have has had not but all any into when what which who how why use uses used using about over under then than them they their there here its our out also only just like need needs want wants please help make some more most such very each other'.split(
    ' ',
  ),
);
const LATIN_TOKEN = /[\p{L}\p{N}]+/gu;

/**
 * Terms of a text: Latin words of 3+ characters without stopwords (a plural `s` trimmed), and character
 * bigrams for CJK runs.
 */
export function tfidfTerms(text: string): string[] {
  const folded = foldText(text);
  const terms: string[] = [];
  for (const [word] of folded.matchAll(LATIN_TOKEN)) {
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(word)) continue;
    if (word.length < 3 || STOPWORDS.has(word)) continue;
    terms.push(word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);
  }
  terms.push(...cjkBigrams(folded));
  return terms;
}

/**
 * A TF-IDF index with cosine similarity, built once per skill snapshot. Weights are `(1 + ln tf) · idf`
 * with `idf = ln(1 + N / df)`, L2-normalised; a query only walks the postings of its own terms.
 * Terms found in more than half of a large collection carry little signal and are left out.
 */
export class TfidfIndex {
  private readonly postings = new Map<string, Array<{ id: number; weight: number }>>();
  private readonly idf = new Map<string, number>();
  readonly size: number;

  constructor(documents: TfidfDocument[]) {
    this.size = documents.length;
    const counts = documents.map((doc) => countTerms(tfidfTerms(doc.text)));
    const df = new Map<string, number>();
    for (const count of counts) for (const term of count.keys()) df.set(term, (df.get(term) ?? 0) + 1);
    for (const [term, frequency] of df) {
      if (this.size >= 20 && frequency > this.size / 2) continue;
      this.idf.set(term, Math.log(1 + this.size / frequency));
    }
    documents.forEach((doc, index) => {
      const weights: Array<[string, number]> = [];
      let norm = 0;
      for (const [term, tf] of counts[index]!) {
        const idf = this.idf.get(term);
        if (idf === undefined) continue;
        const weight = (1 + Math.log(tf)) * idf;
        weights.push([term, weight]);
        norm += weight * weight;
      }
      norm = Math.sqrt(norm) || 1;
      for (const [term, weight] of weights) {
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push({ id: doc.id, weight: weight / norm });
      }
    });
  }

  /** Documents whose similarity with `text` is at least `threshold`, best first, at most `limit`. */
  query(text: string, threshold: number, limit = 10): TfidfHit[] {
    const counts = countTerms(tfidfTerms(text));
    const query: Array<[string, number]> = [];
    let norm = 0;
    for (const [term, tf] of counts) {
      const idf = this.idf.get(term);
      // Unknown words still dilute the query a little, so one shared word in a long message scores low.
      const weight = (1 + Math.log(tf)) * (idf ?? 1);
      norm += weight * weight;
      if (idf !== undefined) query.push([term, weight]);
    }
    if (query.length === 0) return [];
    norm = Math.sqrt(norm);
    const scores = new Map<number, { sum: number; terms: Array<[string, number]> }>();
    for (const [term, weight] of query) {
      for (const posting of this.postings.get(term) ?? []) {
        const contribution = (weight / norm) * posting.weight;
        let entry = scores.get(posting.id);
        if (!entry) scores.set(posting.id, (entry = { sum: 0, terms: [] }));
        entry.sum += contribution;
        entry.terms.push([term, contribution]);
      }
    }
    const hits: TfidfHit[] = [];
    for (const [id, entry] of scores) {
      if (entry.sum < threshold) continue;
      const terms = entry.terms
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([term]) => term);
      hits.push({ id, similarity: Math.min(1, entry.sum), terms });
    }
    return hits.sort((a, b) => b.similarity - a.similarity || a.id - b.id).slice(0, limit);
  }
}

function countTerms(terms: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
