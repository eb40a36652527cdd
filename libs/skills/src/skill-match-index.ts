import { containsCjk, cjkRuns, isCjkChar } from './cjk-text.js';
import { inflectionStem } from './word-inflection.js';
import { DEFAULT_MATCH_INPUT_CAP, testGuarded, type GuardedPattern } from './regex-guard.js';

/** What a term is used for. */
export type TermKind = 'keyword' | 'exclude' | 'tag';

/** One term of one skill, as indexed. */
export interface TermPosting {
  readonly skill: number;
  readonly kind: TermKind;
  readonly term: string;
  readonly cjk: boolean;
  /** Inflection stems of the term's words, in order (empty for CJK terms). */
  readonly stems: readonly string[];
  /** The term has punctuation inside (`node.js`, `c++`, `ci/cd`): its literal must also occur as a whole word. */
  readonly literal: boolean;
}

/** The terms and patterns of one skill to index. */
export interface MatchableSkill {
  keywords: string[];
  excludeKeywords: string[];
  tags: string[];
  patterns: GuardedPattern[];
}

/** A message prepared once for matching: folded text, its Latin word tokens and their inflection stems. */
export interface PreparedMessage {
  folded: string;
  tokens: Set<string>;
  /** Stem → positions in the message's word sequence (a CJK run breaks the sequence). */
  stems: Map<string, number[]>;
  /** The stem sequence, with `''` where CJK text separates Latin words. */
  sequence: string[];
}

const CJK_GLOBAL = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const ALNUM_TOKEN = /[\p{L}\p{N}]+/gu;
const ALNUM_CHAR = /[\p{L}\p{N}]/u;
/** Longest Latin key; longer message tokens are still scanned, in windows of this length. */
const MAX_KEY_LENGTH = 32;

/** Folded message → the structure every matcher reads. */
export function prepareMessage(folded: string): PreparedMessage {
  const tokens = new Set<string>();
  const stems = new Map<string, number[]>();
  const sequence: string[] = [];
  for (const [token] of folded.replace(CJK_GLOBAL, ' \uE000 ').matchAll(/[\p{L}\p{N}]+|\uE000/gu)) {
    if (token === '\uE000') {
      if (sequence.length > 0 && sequence[sequence.length - 1] !== '') sequence.push('');
      continue;
    }
    tokens.add(token);
    const stem = inflectionStem(token);
    const positions = stems.get(stem);
    if (positions) positions.push(sequence.length);
    else stems.set(stem, [sequence.length]);
    sequence.push(stem);
  }
  return { folded, tokens, stems, sequence };
}

/**
 * True when a (folded) term occurs in the message as whole words: each word of the term equals a message word
 * or an inflection of it, in order and adjacent ("log" matches "logs" and "logging", never "catalog"); a term
 * with punctuation inside must also occur literally as a whole word; a CJK term occurs anywhere (CJK text has
 * no spaces to mark words).
 */
export function termOccurs(message: PreparedMessage, term: string): boolean {
  if (containsCjk(term)) return message.folded.includes(term);
  return postingOccurs(message, latinPosting(0, 'keyword', term));
}

function postingOccurs(message: PreparedMessage, posting: TermPosting): boolean {
  if (posting.cjk) return message.folded.includes(posting.term);
  const first = posting.stems[0];
  if (first === undefined) return false;
  const starts = message.stems.get(first);
  if (!starts) return false;
  const rest = posting.stems.length;
  const inOrder = starts.some((start) => {
    for (let i = 1; i < rest; i++) if (message.sequence[start + i] !== posting.stems[i]) return false;
    return true;
  });
  return inOrder && (!posting.literal || classifyTerm(message.folded, posting.term) === 'exact');
}

function latinPosting(skill: number, kind: TermKind, term: string): TermPosting {
  const words = term.match(ALNUM_TOKEN) ?? [];
  return {
    skill,
    kind,
    term,
    cjk: false,
    stems: words.map(inflectionStem),
    literal: words.join(' ') !== term,
  };
}

/**
 * An inverted index from terms and pattern literals to skills, built once per snapshot, so a message is
 * matched by looking up its own words instead of looping over every skill.
 *
 * Latin terms are keyed by the inflection stem of their first word and matched as whole words (see
 * {@link termOccurs}); CJK terms are keyed by their first CJK bigram (or character) and verified by
 * containment. Pattern literals are keyed by their longest Latin token, found inside message words by a
 * prefix walk (a regex may match inside a word), or by a CJK bigram; a pattern runs only when its literal is
 * present, and patterns without a literal run on every message.
 */
export class SkillMatchIndex {
  private readonly terms = new Map<string, TermPosting[]>();
  private readonly prefixes = new Set<string>();
  private readonly patterns = new Map<string, Array<{ skill: number; pattern: GuardedPattern }>>();
  private readonly unfilteredPatterns: Array<{ skill: number; pattern: GuardedPattern }> = [];

  constructor(
    skills: MatchableSkill[],
    private readonly matchInputCap = DEFAULT_MATCH_INPUT_CAP,
  ) {
    skills.forEach((skill, index) => {
      for (const term of skill.keywords) this.addTerm(index, 'keyword', term);
      for (const term of skill.excludeKeywords) this.addTerm(index, 'exclude', term);
      for (const term of skill.tags) this.addTerm(index, 'tag', term);
      for (const pattern of skill.patterns) {
        const key = pattern.requiredLiteral ? keyOf(pattern.requiredLiteral) : undefined;
        if (key === undefined) this.unfilteredPatterns.push({ skill: index, pattern });
        else {
          push(this.patterns, key, { skill: index, pattern });
          this.addPrefixes(key);
        }
      }
    });
  }

  /** Number of patterns that run on every message (no literal to prefilter by). */
  get unfilteredPatternCount(): number {
    return this.unfilteredPatterns.length;
  }

  /** Calls `visit` for every term of every skill that occurs in the message as whole words. */
  forEachTermHit(message: PreparedMessage, visit: (posting: TermPosting) => void): void {
    for (const stem of message.stems.keys()) {
      const postings = this.terms.get(stem);
      if (postings) for (const posting of postings) if (postingOccurs(message, posting)) visit(posting);
    }
    const looked = new Set<string>();
    for (const run of cjkRuns(message.folded)) {
      const chars = [...run];
      for (let i = 0; i < chars.length; i++) {
        for (const key of [chars[i]!, chars[i]! + (chars[i + 1] ?? '')]) {
          if (looked.has(key)) continue;
          looked.add(key);
          const postings = this.terms.get(key);
          if (postings)
            for (const posting of postings) if (posting.cjk && postingOccurs(message, posting)) visit(posting);
        }
      }
    }
  }

/** Calls `visit` for every pattern of every skill that matches the (capped) message. */
  forEachPatternHit(message: PreparedMessage, visit: (skill: number, source: string) => void): void {
    const text =
      message.folded.length > this.matchInputCap
        ? message.folded.slice(0, this.matchInputCap)
        : message.folded;
    const run = (skill: number, pattern: GuardedPattern) => {
      if (testGuarded(pattern, text, this.matchInputCap)) visit(skill, pattern.source);
    };
    if (this.patterns.size > 0) {
      const capped = text === message.folded ? message : prepareMessage(text);
      const visitKey = (key: string) => {
        const postings = this.patterns.get(key);
        if (postings)
          for (const posting of postings)
            if (text.includes(posting.pattern.requiredLiteral!)) run(posting.skill, posting.pattern);
      };
      this.forEachLatinKey(capped, visitKey);
      const looked = new Set<string>();
      for (const runText of cjkRuns(text)) {
        const chars = [...runText];
        for (let i = 0; i + 1 < chars.length; i++) {
          const key = chars[i]! + chars[i + 1]!;
          if (!looked.has(key)) {
            looked.add(key);
            visitKey(key);
          }
        }
      }
    }
    for (const { skill, pattern } of this.unfilteredPatterns) run(skill, pattern);
  }

  /** Every distinct substring (3+ characters) of the message's tokens that is an indexed Latin key. */
  private forEachLatinKey(message: PreparedMessage, visit: (key: string) => void): void {
    const looked = new Set<string>();
    for (const token of message.tokens) {
      const length = token.length;
      for (let start = 0; start + 3 <= length; start++) {
        for (let end = start + 3; end <= length && end - start <= MAX_KEY_LENGTH; end++) {
          const key = token.slice(start, end);
          if (!this.prefixes.has(key)) break;
          if (looked.has(key)) continue;
          looked.add(key);
          visit(key);
        }
      }
    }
  }

  private addTerm(skill: number, kind: TermKind, term: string): void {
    if (containsCjk(term)) {
      push(this.terms, cjkKey(term), { skill, kind, term, cjk: true, stems: [], literal: false });
      return;
    }
    const posting = latinPosting(skill, kind, term);
    if (posting.stems.length > 0) push(this.terms, posting.stems[0]!, posting);
  }

  private addPrefixes(key: string): void {
    for (let end = 3; end <= key.length; end++) this.prefixes.add(key.slice(0, end));
  }
}

/**
 * How a (non-CJK) term occurs in folded text: `exact` when some occurrence has no letter or digit on either
 * side (CJK characters count as boundaries), `substring` when it only occurs inside words.
 */
export function classifyTerm(text: string, term: string): 'exact' | 'substring' | undefined {
  let found: 'substring' | undefined;
  let index = text.indexOf(term);
  while (index !== -1) {
    const before = index === 0 ? '' : text[index - 1]!;
    const after = text[index + term.length] ?? '';
    const boundedStart = !isWordChar(before) || !isWordChar(term[0]!);
    const boundedEnd = !isWordChar(after) || !isWordChar(term[term.length - 1]!);
    if (boundedStart && boundedEnd) return 'exact';
    found = 'substring';
    index = text.indexOf(term, index + 1);
  }
  return found;
}

function isWordChar(char: string): boolean {
  return char !== '' && ALNUM_CHAR.test(char) && !isCjkChar(char);
}

/** Index key of a pattern literal: its longest Latin token (3+), else its first CJK bigram; undefined if neither. */
function keyOf(literal: string): string | undefined {
  const tokens = literal.replace(CJK_GLOBAL, ' ').match(ALNUM_TOKEN) ?? [];
  const longest = tokens.reduce((best, token) => (token.length > best.length ? token : best), '');
  if (longest.length >= 3 && longest.length <= MAX_KEY_LENGTH) return longest;
  const chars = [...literal];
  const first = chars.findIndex(
    (char, i) => isCjkChar(char) && chars[i + 1] !== undefined && isCjkChar(chars[i + 1]!),
  );
  return first >= 0 ? chars[first]! + chars[first + 1]! : undefined;
}

function cjkKey(term: string): string {
  const chars = [...term];
  const first = chars.findIndex(isCjkChar);
  return chars[first + 1] !== undefined && isCjkChar(chars[first + 1]!)
    ? chars[first]! + chars[first + 1]!
    : chars[first]!;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
