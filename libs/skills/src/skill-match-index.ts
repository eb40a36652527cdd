import { containsCjk, cjkRuns, isCjkChar } from './cjk-text.js';
import { DEFAULT_MATCH_INPUT_CAP, testGuarded, type GuardedPattern } from './regex-guard.js';

/** What a term is used for. */
export type TermKind = 'keyword' | 'exclude' | 'tag';

/** One term of one skill, as matched against a message. */
export interface TermMatch {
  skill: number;
  kind: TermKind;
  term: string;
  /** `exact` on word boundaries (or anywhere for CJK), `substring` inside a longer word. */
  match: 'exact' | 'substring';
}

/** One pattern of one skill that matched. */
export interface PatternMatch {
  skill: number;
  source: string;
}

interface TermPosting {
  skill: number;
  kind: TermKind;
  term: string;
  cjk: boolean;
}

interface PatternPosting {
  skill: number;
  pattern: GuardedPattern;
}

/** The terms and patterns of one skill to index. */
export interface MatchableSkill {
  keywords: string[];
  excludeKeywords: string[];
  tags: string[];
  patterns: GuardedPattern[];
}

const ALNUM_TOKEN = /[\p{L}\p{N}]+/gu;
const ALNUM_CHAR = /[\p{L}\p{N}]/u;
/** Message tokens longer than this only contribute substrings up to this length. */
const MAX_SUBSTRING_LENGTH = 32;

/**
 * An inverted index from terms and pattern literals to skills, built once per snapshot, so a message is
 * matched by looking up its own substrings instead of looping over every skill.
 *
 * Latin terms are keyed by their longest alphanumeric token; the message's tokens are expanded into all
 * substrings of 3+ characters and looked up, then each hit is verified on the folded message (word
 * boundaries decide exact versus substring). CJK terms are keyed by their first CJK bigram (or single
 * character) and verified by plain containment. Patterns with a required literal are keyed by its first
 * three characters and run only when the literal is present; patterns without one always run.
 */
export class SkillMatchIndex {
  private readonly terms = new Map<string, TermPosting[]>();
  private readonly shortTerms: TermPosting[] = [];
  private readonly patterns = new Map<string, PatternPosting[]>();
  private readonly unfilteredPatterns: PatternPosting[] = [];

  constructor(skills: MatchableSkill[], private readonly matchInputCap = DEFAULT_MATCH_INPUT_CAP) {
    skills.forEach((skill, index) => {
      for (const term of skill.keywords) this.addTerm({ skill: index, kind: 'keyword', term, cjk: containsCjk(term) });
      for (const term of skill.excludeKeywords) this.addTerm({ skill: index, kind: 'exclude', term, cjk: containsCjk(term) });
      for (const term of skill.tags) this.addTerm({ skill: index, kind: 'tag', term, cjk: containsCjk(term) });
      for (const pattern of skill.patterns) {
        const literal = pattern.requiredLiteral;
        if (!literal) this.unfilteredPatterns.push({ skill: index, pattern });
        else push(this.patterns, [...literal].slice(0, 3).join(''), { skill: index, pattern });
      }
    });
  }

  /** Number of patterns that run on every message (no literal to prefilter by). */
  get unfilteredPatternCount(): number {
    return this.unfilteredPatterns.length;
  }

  /** Every term of every skill that occurs in the folded message. */
  matchTerms(folded: string): TermMatch[] {
    const seen = new Set<TermPosting>();
    const matches: TermMatch[] = [];
    const consider = (posting: TermPosting) => {
      if (seen.has(posting)) return;
      seen.add(posting);
      const match = posting.cjk ? (folded.includes(posting.term) ? 'exact' : undefined) : classify(folded, posting.term);
      if (match) matches.push({ skill: posting.skill, kind: posting.kind, term: posting.term, match });
    };
    const keys = new Set<string>();
    for (const [token] of folded.matchAll(ALNUM_TOKEN)) {
      if (containsCjk(token)) continue;
      if (keys.has(`\u0000${token}`)) continue;
      keys.add(`\u0000${token}`);
      const chars = [...token];
      for (let start = 0; start < chars.length; start++) {
        let key = '';
        for (let end = start; end < chars.length && end - start < MAX_SUBSTRING_LENGTH; end++) {
          key += chars[end];
          if (end - start < 2 || keys.has(key)) continue;
          keys.add(key);
          const postings = this.terms.get(key);
          if (postings) for (const posting of postings) if (!posting.cjk) consider(posting);
        }
      }
    }
    for (const run of cjkRuns(folded)) {
      const chars = [...run];
      for (let i = 0; i < chars.length; i++) {
        for (const key of [chars[i]!, chars[i]! + (chars[i + 1] ?? '')]) {
          if (key.length === 0 || keys.has(key)) continue;
          keys.add(key);
          const postings = this.terms.get(key);
          if (postings) for (const posting of postings) if (posting.cjk) consider(posting);
        }
      }
    }
    for (const posting of this.shortTerms) consider(posting);
    return matches;
  }

  /** Every pattern of every skill that matches the (capped) folded message. */
  matchPatterns(folded: string): PatternMatch[] {
    const text = folded.length > this.matchInputCap ? folded.slice(0, this.matchInputCap) : folded;
    const matches: PatternMatch[] = [];
    const run = (posting: PatternPosting) => {
      if (testGuarded(posting.pattern, text, this.matchInputCap)) matches.push({ skill: posting.skill, source: posting.pattern.source });
    };
    if (this.patterns.size > 0) {
      const seen = new Set<string>();
      const chars = [...text];
      for (let i = 0; i < chars.length; i++) {
        for (const key of [chars[i]! + (chars[i + 1] ?? ''), chars[i]! + (chars[i + 1] ?? '') + (chars[i + 2] ?? '')]) {
          if (seen.has(key)) continue;
          seen.add(key);
          for (const posting of this.patterns.get(key) ?? []) if (text.includes(posting.pattern.requiredLiteral!)) run(posting);
        }
      }
    }
    for (const posting of this.unfilteredPatterns) run(posting);
    return matches;
  }

  private addTerm(posting: TermPosting): void {
    if (posting.cjk) {
      const chars = [...posting.term];
      const first = chars.findIndex(isCjkChar);
      const key = first >= 0 && chars[first + 1] !== undefined && isCjkChar(chars[first + 1]!) ? chars[first]! + chars[first + 1]! : chars[first]!;
      push(this.terms, key, posting);
      return;
    }
    const tokens = posting.term.match(ALNUM_TOKEN) ?? [];
    const longest = tokens.reduce((best, token) => ([...token].length > [...best].length ? token : best), '');
    if ([...longest].length < 3 || [...longest].length > MAX_SUBSTRING_LENGTH) this.shortTerms.push(posting);
    else push(this.terms, longest, posting);
  }
}

/** `exact` if some occurrence sits on word boundaries, `substring` if it only occurs inside words. */
function classify(text: string, term: string): 'exact' | 'substring' | undefined {
  let found: 'substring' | undefined;
  let index = text.indexOf(term);
  while (index !== -1) {
    const before = index === 0 ? '' : text[index - 1]!;
    const after = text[index + term.length] ?? '';
    const boundedStart = before === '' || !ALNUM_CHAR.test(before) || !ALNUM_CHAR.test(term[0]!);
    const boundedEnd = after === '' || !ALNUM_CHAR.test(after) || !ALNUM_CHAR.test(term[term.length - 1]!);
    if (boundedStart && boundedEnd) return 'exact';
    found = 'substring';
    index = text.indexOf(term, index + 1);
  }
  return found;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
