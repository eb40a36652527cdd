import { cjkBigrams, foldText } from './cjk-text.js';
import { inflectionStem } from './word-inflection.js';

/** One document: weighted fields of text (a field of weight 3 counts each of its terms three times). */
export interface Bm25Document {
  fields: Array<{ text: string; weight: number }>;
}

/** One scored document. */
export interface Bm25Hit {
  id: number;
  /** Raw BM25 score. */
  score: number;
  /** Score over the most the message's known terms could give (each matched once at average length): 0..1. */
  relevance: number;
}

/** Words that carry no topic (English function words and request filler). */
const STOPWORDS = new Set(
  'a an the and or for with that this from you your are was were will would can could should have has had not but all any into when what which who how why use uses used using about over under then than them they their there here its our out also only just like need needs want wants please help make some more most such very each other to of in on at by is it be as do does did so if me my we us i am let get got me some may might must shall via per'.split(
    ' ',
  ),
);
const LATIN_WORD = /[\p{L}\p{N}]+/gu;
const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const K1 = 1.2;
const B = 0.75;
/** At most this many distinct message terms are scored (the rarest first), so a pasted log stays cheap. */
export const MAX_QUERY_TERMS = 48;

/**
 * Terms of a text for BM25: Latin words of 2+ characters without stopwords, folded to their inflection stem
 * (`deploys` → `deploy`), and character bigrams of CJK runs (a one-character run yields itself).
 */
export function bm25Terms(text: string): string[] {
  const folded = foldText(text);
  const terms: string[] = [];
  for (const [word] of folded.replace(CJK_RUNS, ' ').matchAll(LATIN_WORD)) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    terms.push(inflectionStem(word));
  }
  terms.push(...cjkBigrams(folded));
  return terms;
}

/**
 * Okapi BM25 (k1 1.2, b 0.75) over weighted fields, built once per skill snapshot. Postings hold the
 * length-normalised term weight precomputed, so a query is one multiply-add per posting of its terms, into a
 * reused score array. CJK-aware through bigrams, as the TF-IDF tier was.
 */
export class Bm25Index {
  private readonly termIds = new Map<string, number>();
  private readonly termNames: string[];
  private readonly idf: number[] = [];
  private readonly postingDocs: Int32Array[] = [];
  private readonly postingWeights: Float32Array[] = [];
  private readonly docTerms: Int32Array[];
  private readonly scores: Float64Array;
  private readonly seen: Uint8Array;
  readonly size: number;

  constructor(documents: readonly Bm25Document[]) {
    this.size = documents.length;
    const counts = documents.map((doc) => {
      const count = new Map<number, number>();
      let length = 0;
      for (const field of doc.fields)
        for (const term of bm25Terms(field.text)) {
          let id = this.termIds.get(term);
          if (id === undefined) this.termIds.set(term, (id = this.termIds.size));
          count.set(id, (count.get(id) ?? 0) + field.weight);
          length += field.weight;
        }
      return { count, length };
    });
    const average = counts.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, counts.length) || 1;
    const docs: number[][] = Array.from({ length: this.termIds.size }, () => []);
    const weights: number[][] = Array.from({ length: this.termIds.size }, () => []);
    counts.forEach(({ count, length }, doc) => {
      const norm = K1 * (1 - B + (B * length) / average);
      for (const [term, tf] of count) {
        docs[term]!.push(doc);
        weights[term]!.push((tf * (K1 + 1)) / (tf + norm));
      }
    });
    for (let term = 0; term < docs.length; term++) {
      const df = docs[term]!.length;
      this.idf.push(Math.log(1 + (this.size - df + 0.5) / (df + 0.5)));
      this.postingDocs.push(Int32Array.from(docs[term]!));
      this.postingWeights.push(Float32Array.from(weights[term]!));
    }
    this.termNames = [...this.termIds.keys()];
    this.docTerms = counts.map(({ count }) => Int32Array.from([...count.keys()].sort((a, b) => a - b)));
    this.scores = new Float64Array(this.size);
    this.seen = new Uint8Array(this.size);
  }

  /** Number of distinct terms indexed. */
  get vocabularySize(): number {
    return this.termIds.size;
  }

  /**
   * Scores every document that shares a term with the text and returns those whose relevance is at least
   * `minRelevance`, best first (ties by id). Synchronous and allocation-light: safe to call per message.
   */
  query(text: string, minRelevance = 0): Bm25Hit[] {
    const query = this.queryTerms(text);
    if (query.length === 0) return [];
    let ideal = 0;
    for (const term of query) ideal += this.idf[term]!;
    const touched: number[] = [];
    for (const term of query) {
      const idf = this.idf[term]!;
      const docs = this.postingDocs[term]!;
      const weights = this.postingWeights[term]!;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        if (this.seen[doc] === 0) {
          this.seen[doc] = 1;
          touched.push(doc);
        }
        this.scores[doc]! += idf * weights[i]!;
      }
    }
    const hits: Bm25Hit[] = [];
    for (const doc of touched) {
      const score = this.scores[doc]!;
      const relevance = Math.min(1, score / ideal);
      if (relevance >= minRelevance) hits.push({ id: doc, score, relevance });
      this.scores[doc] = 0;
      this.seen[doc] = 0;
    }
    return hits.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /** The message's terms that a document contains, rarest first (for reasons). */
  matchedTerms(text: string, doc: number, limit = 5): string[] {
    const own = this.docTerms[doc]!;
    return this.queryTerms(text)
      .filter((term) => binaryHas(own, term))
      .slice(0, limit)
      .map((term) => this.termNames[term]!);
  }

  /** Distinct known terms of a text, the rarest (highest idf) first, at most {@link MAX_QUERY_TERMS}. */
  private queryTerms(text: string): number[] {
    const ids = new Set<number>();
    for (const term of bm25Terms(text)) {
      const id = this.termIds.get(term);
      if (id !== undefined) ids.add(id);
    }
    return [...ids].sort((a, b) => this.idf[b]! - this.idf[a]! || a - b).slice(0, MAX_QUERY_TERMS);
  }
}

function binaryHas(sorted: Int32Array, value: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = sorted[mid]!;
    if (at === value) return true;
    if (at < value) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}
