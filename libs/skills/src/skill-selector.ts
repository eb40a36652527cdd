import type {
  ActiveSkill,
  ConsideredSkill,
  SelectResult,
  SelectionOutcome,
  SelectionTier,
} from '@talon/contracts';
import { foldText } from './cjk-text.js';
import type { LoadedSkill } from './loaded-skill.js';
import { DEFAULT_MATCH_INPUT_CAP } from './regex-guard.js';
import { capSkillBody } from './skill-body-cap.js';
import { renderSkillBody } from './skill-body-template.js';
import { buildSkillInjection } from './skill-injection.js';
import { prepareMessage, SkillMatchIndex } from './skill-match-index.js';
import { Bm25Index, type Bm25Document } from './bm25-index.js';
import { explainMatches } from './selection-reasons.js';
import { SELECTION_SCORES } from './selection-scores.js';

/** Default number of skills active at once (`SKILLS_MAX_ACTIVE`). */
export const DEFAULT_MAX_ACTIVE = 3;
/** Default prompt budget for skills, in tokens (`SKILLS_MAX_CONTEXT_TOKENS`). */
export const DEFAULT_MAX_CONTEXT_TOKENS = 4000;
/** Default minimum BM25 relevance (0..1) for a skill without keyword, tag or pattern hits to be a candidate. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.25;
/** Default number of message characters matched (terms and mentions); longer messages are cut. */
export const DEFAULT_TERM_INPUT_CAP = 16384;

/** Options fixed when the selector is built. */
export interface SkillSelectorOptions {
  /** Default 3. */
  maxActive?: number;
  /** Default 4000. */
  maxContextTokens?: number;
  /** Default 0.25. */
  similarityThreshold?: number;
  /** Characters of the message regexes run on. Default 2048. */
  patternInputCap?: number;
  /** Characters of the message terms are matched in. Default 16384. */
  termInputCap?: number;
  /** How many considered skills a result lists (active ones always are). Default 20. */
  consideredLimit?: number;
}

/** Per-call overrides. */
export interface SelectOptions {
  maxActive?: number;
  maxContextTokens?: number;
  /** Parameter values by skill name. */
  parameters?: Record<string, Record<string, unknown>>;
}

/** Default number of considered skills reported per selection (the rest are only counted). */
export const DEFAULT_CONSIDERED_LIMIT = 20;

const MENTION = /(?:^|[^\p{L}\p{N}_/$.:-])([/$])([a-z0-9]+(?:-[a-z0-9]+)*)(?![\p{L}\p{N}_/-])/giu;
/** Longest command text handed on with a mention (the rest of its line). */
const MAX_INVOCATION_CHARS = 2000;
const HEADING = /^#{1,6}[ \t]+(.+)$/gm;
const MAX_HEADINGS = 24;

interface SelectionPick {
  index: number;
  tier: SelectionTier;
  score: number;
  /** BM25 relevance (0..1), 0 when the skill shares no term with the message. */
  relevance: number;
  extraReasons: string[];
  /** For a mention: the mention and the rest of its line, as written. */
  invocation?: string;
}

/**
 * Hybrid, deterministic skill selection over one snapshot. Every eligible skill is ranked by one score: a BM25
 * lexical relevance over its name, description and body headings (CJK-aware), times
 * `SELECTION_SCORES.lexical`, plus the capped boosts of its declared keywords, tags and patterns (whole words and
 * their inflections). No tier hides another: a keyword hit on one skill does not stop the others from being
 * ranked by their descriptions. A skill is a candidate when it has a boost or its relevance reaches the
 * similarity threshold; an exclude keyword vetoes it; `/name` and `$name` mentions are always active.
 * Building indexes everything once (terms, pattern literals, BM25 postings, costs, name order); `select` only
 * touches the skills that share something with its message and writes reasons only for those it reports.
 */
export class SkillSelector {
  private readonly eligible: LoadedSkill[];
  private readonly matchIndex: SkillMatchIndex;
  private readonly lexical: Bm25Index;
  private readonly byName = new Map<string, LoadedSkill>();
  private readonly eligibleIndex = new Map<string, number>();
  private readonly commands = new Map<string, string>();
  private readonly options: Required<SkillSelectorOptions>;
  private readonly costs: Int32Array;
  private readonly nameRank: Int32Array;
  private readonly nameOrder: Int32Array;
  private readonly injectionCache: Array<string | undefined>;
  // Scratch space reused by every call (select is synchronous, so calls never overlap).
  private readonly keywordPoints: Int32Array;
  private readonly tagPoints: Int32Array;
  private readonly patternPoints: Int32Array;
  private readonly relevance: Float64Array;
  private readonly flags: Uint8Array;

  constructor(skills: readonly LoadedSkill[], options: SkillSelectorOptions = {}) {
    this.options = {
      maxActive: options.maxActive ?? DEFAULT_MAX_ACTIVE,
      maxContextTokens: options.maxContextTokens ?? DEFAULT_MAX_CONTEXT_TOKENS,
      similarityThreshold: options.similarityThreshold ?? DEFAULT_SIMILARITY_THRESHOLD,
      patternInputCap: options.patternInputCap ?? DEFAULT_MATCH_INPUT_CAP,
      termInputCap: options.termInputCap ?? DEFAULT_TERM_INPUT_CAP,
      consideredLimit: options.consideredLimit ?? DEFAULT_CONSIDERED_LIMIT,
    };
    this.eligible = skills.filter((skill) => skill.gating.eligible);
    for (const skill of skills) if (!this.byName.has(skill.name)) this.byName.set(skill.name, skill);
    const count = this.eligible.length;
    this.costs = new Int32Array(count);
    this.eligible.forEach((skill, index) => {
      this.eligibleIndex.set(skill.name, index);
      this.costs[index] = Math.min(costOf(skill), this.options.maxContextTokens);
      for (const trigger of skill.triggers)
        if (trigger.kind === 'command' && !this.commands.has(trigger.command.slice(1)))
          this.commands.set(trigger.command.slice(1), skill.name);
    });
    const sorted = this.eligible
      .map((_, index) => index)
      .sort((a, b) => compareNames(this.eligible[a]!.name, this.eligible[b]!.name));
    this.nameRank = new Int32Array(count);
    sorted.forEach((index, rank) => (this.nameRank[index] = rank));
    this.nameOrder = Int32Array.from(sorted);
    this.injectionCache = new Array(count);
    this.keywordPoints = new Int32Array(count);
    this.tagPoints = new Int32Array(count);
    this.patternPoints = new Int32Array(count);
    this.relevance = new Float64Array(count);
    this.flags = new Uint8Array(count);
    this.matchIndex = new SkillMatchIndex(
      this.eligible.map((skill) => skill.activation),
      this.options.patternInputCap,
    );
    this.lexical = new Bm25Index(this.eligible.map(lexicalDocument));
  }

  /** Number of eligible (indexed) skills. */
  get size(): number {
    return this.eligible.length;
  }

  /**
   * Every eligible skill ranked by the same score `select` uses (BM25 relevance plus boosts) for a message,
   * vetoed skills left out, skills sharing nothing with the message last in name order: the order of the
   * model-mode index. Renders nothing.
   */
  rank(message: string): LoadedSkill[] {
    const capped =
      message.length > this.options.termInputCap ? message.slice(0, this.options.termInputCap) : message;
    const prepared = prepareMessage(foldText(capped));
    const points = new Map<number, number>();
    const vetoed = new Set<number>();
    const add = (index: number, value: number) => points.set(index, (points.get(index) ?? 0) + value);
    const keyword = new Map<number, number>();
    const tag = new Map<number, number>();
    const pattern = new Map<number, number>();
    const bump = (map: Map<number, number>, index: number, value: number) =>
      map.set(index, (map.get(index) ?? 0) + value);
    this.matchIndex.forEachTermHit(prepared, (posting) => {
      if (posting.kind === 'exclude') vetoed.add(posting.skill);
      else if (posting.kind === 'keyword') bump(keyword, posting.skill, SELECTION_SCORES.keyword);
      else bump(tag, posting.skill, SELECTION_SCORES.tag);
    });
    this.matchIndex.forEachPatternHit(prepared, (index) => bump(pattern, index, SELECTION_SCORES.pattern));
    for (const [index, value] of keyword) add(index, Math.min(value, SELECTION_SCORES.keywordCap));
    for (const [index, value] of tag) add(index, Math.min(value, SELECTION_SCORES.tagCap));
    for (const [index, value] of pattern) add(index, Math.min(value, SELECTION_SCORES.patternCap));
    for (const hit of this.lexical.query(capped)) add(hit.id, SELECTION_SCORES.lexical * hit.relevance);
    const scored = [...points.entries()]
      .filter(([index]) => !vetoed.has(index))
      .sort((a, b) => b[1] - a[1] || this.nameRank[a[0]]! - this.nameRank[b[0]]!)
      .map(([index]) => index);
    const ranked = scored.map((index) => this.eligible[index]!);
    for (const index of this.nameOrder)
      if (!points.has(index) && !vetoed.has(index)) ranked.push(this.eligible[index]!);
    return ranked;
  }

  /**
   * One eligible skill as an active skill, its body rendered with `parameters` and capped like any injection:
   * what `skill_load` hands the model. Undefined when no eligible skill has that name; a render problem throws
   * the renderer's typed error.
   */
  activate(name: string, parameters?: Record<string, unknown>): ActiveSkill | undefined {
    const index = this.eligibleIndex.get(name);
    if (index === undefined) return undefined;
    const injection = this.injectionFor(index, parameters ? { [name]: parameters } : undefined, true);
    if (typeof injection !== 'string') throw injection.error;
    const skill = this.eligible[index]!;
    return {
      name: skill.name,
      version: skill.version,
      trust: skill.trust,
      tier: 'mention',
      score: 0,
      costTokens: this.costs[index]!,
      reasons: ['loaded by the model with skill_load'],
      allowedTools: skill.allowedTools,
      injection,
    };
  }

  /** Scores every skill against the message and activates the best within max active and the token budget. */
  select(message: string, options: SelectOptions = {}): SelectResult {
    const started = performance.now();
    const maxActive = options.maxActive ?? this.options.maxActive;
    const budget = options.maxContextTokens ?? this.options.maxContextTokens;
    const limit = this.options.consideredLimit;
    const threshold = this.options.similarityThreshold;
    const capped =
      message.length > this.options.termInputCap ? message.slice(0, this.options.termInputCap) : message;
    const folded = foldText(capped);

    // 1. Boosts from declared keywords, tags and patterns; exclude keywords flag a veto.
    const prepared = prepareMessage(folded);
    const touched: number[] = [];
    const touch = (index: number) => {
      if (this.flags[index] === 0) {
        this.flags[index] = 1;
        touched.push(index);
      }
    };
    this.matchIndex.forEachTermHit(prepared, (posting) => {
      touch(posting.skill);
      if (posting.kind === 'exclude') this.flags[posting.skill] = 2;
      else if (posting.kind === 'keyword') this.keywordPoints[posting.skill]! += SELECTION_SCORES.keyword;
      else this.tagPoints[posting.skill]! += SELECTION_SCORES.tag;
    });
    this.matchIndex.forEachPatternHit(prepared, (skill) => {
      touch(skill);
      this.patternPoints[skill]! += SELECTION_SCORES.pattern;
    });
    // 2. Lexical relevance of every skill that shares a term with the message.
    const floor = threshold / 2;
    for (const hit of this.lexical.query(capped, floor)) {
      touch(hit.id);
      this.relevance[hit.id] = hit.relevance;
    }
    const boost = (index: number) =>
      Math.min(this.keywordPoints[index]!, SELECTION_SCORES.keywordCap) +
      Math.min(this.tagPoints[index]!, SELECTION_SCORES.tagCap) +
      Math.min(this.patternPoints[index]!, SELECTION_SCORES.patternCap);
    const total = (index: number) =>
      Math.round((boost(index) + SELECTION_SCORES.lexical * this.relevance[index]!) * 1000) / 1000;

    try {
      // 3. Mentions, always first.
      const considered: ConsideredSkill[] = [];
      const mentions = this.findMentions(capped.normalize('NFKC'), considered);
      const mentioned = new Set(mentions.map((mention) => mention.index));
      const picks: SelectionPick[] = mentions.map((mention) => ({
        index: mention.index,
        tier: 'mention',
        score: this.flags[mention.index] === 2 ? 0 : total(mention.index),
        relevance: this.relevance[mention.index]!,
        extraReasons: [mention.reason],
        invocation: mention.invocation,
      }));

      // 4. One ranking of every other touched skill by its whole score.
      const ranked: SelectionPick[] = [];
      const below: SelectionPick[] = [];
      const vetoed: number[] = [];
      for (const index of touched) {
        if (mentioned.has(index)) continue;
        if (this.flags[index] === 2) {
          vetoed.push(index);
          continue;
        }
        const relevance = this.relevance[index]!;
        const pick: SelectionPick = {
          index,
          tier: boost(index) > 0 ? 'keyword' : 'similarity',
          score: total(index),
          relevance,
          extraReasons: [],
        };
        if (boost(index) > 0 || relevance >= threshold) ranked.push(pick);
        else below.push(pick);
      }
      const byScore = (a: SelectionPick, b: SelectionPick) =>
        b.score - a.score || this.nameRank[a.index]! - this.nameRank[b.index]!;
      ranked.sort(byScore);

      // 5. Greedy fill.
      const active: ActiveSkill[] = [];
      let tokensUsed = 0;
      let reported = 0;
      const outcomes: Array<{ pick: SelectionPick; outcome: SelectionOutcome }> = [];
      const decide = (pick: SelectionPick): boolean => {
        const cost = this.costs[pick.index]!;
        const isMention = pick.tier === 'mention';
        let outcome: SelectionOutcome = 'active';
        if (!isMention && active.length >= maxActive) outcome = 'over_max_active';
        else if (!isMention && tokensUsed + cost > budget) outcome = 'over_budget';
        if (outcome === 'active') {
          const injection = this.injectionFor(pick.index, options.parameters);
          if (typeof injection === 'string') {
            const skill = this.eligible[pick.index]!;
            active.push({
              name: skill.name,
              version: skill.version,
              trust: skill.trust,
              tier: pick.tier,
              score: pick.score,
              costTokens: cost,
              reasons: [],
              allowedTools: skill.allowedTools,
              tools: skill.declaredTools,
              preApprovedTools: skill.preApprovedTools,
              injection,
              ...(pick.invocation !== undefined ? { invocation: pick.invocation } : {}),
            });
            tokensUsed += cost;
          } else {
            outcome = 'render_failed';
            pick.extraReasons.push(String(injection.error));
          }
        } else if (outcome === 'over_max_active')
          pick.extraReasons.push(`not activated: ${maxActive} skills already active`);
        else
          pick.extraReasons.push(
            `not activated: costs ${cost} tokens, ${Math.max(0, budget - tokensUsed)} of ${budget} left`,
          );
        if (outcome === 'active' || reported < limit) {
          outcomes.push({ pick, outcome });
          reported++;
        }
        // Keep walking only while something can still change or be reported.
        return active.length < maxActive || reported < limit;
      };
      for (const pick of picks) decide(pick);
      for (const pick of ranked) if (!decide(pick)) break;
      for (const index of vetoed) {
        if (reported >= limit) break;
        outcomes.push({
          pick: { index, tier: 'keyword', score: 0, relevance: 0, extraReasons: [] },
          outcome: 'vetoed',
        });
        reported++;
      }
      below.sort(byScore);
      for (const pick of below) {
        if (reported >= limit) break;
        pick.extraReasons.push(`below the similarity threshold ${threshold}`);
        outcomes.push({ pick, outcome: 'below_threshold' });
        reported++;
      }

      // 6. Reasons, only for what is reported.
      for (const { pick, outcome } of outcomes) {
        const skill = this.eligible[pick.index]!;
        const lexicalReason =
          pick.relevance > 0
            ? [
                `lexical relevance ${round3(pick.relevance)} × ${SELECTION_SCORES.lexical} (BM25 over name, description, headings; terms: ${this.lexical.matchedTerms(capped, pick.index).join(', ')})`,
              ]
            : [];
        const all = [
          ...(pick.tier === 'mention' ? pick.extraReasons.slice(0, 1) : []),
          ...explainMatches(skill.activation, prepared, this.options.patternInputCap),
          ...lexicalReason,
          ...(pick.tier === 'mention' ? pick.extraReasons.slice(1) : pick.extraReasons),
        ];
        considered.push({
          name: skill.name,
          trust: skill.trust,
          tier: pick.tier,
          score: pick.score,
          costTokens: this.costs[pick.index]!,
          outcome,
          reasons: all,
        });
        const activeEntry =
          outcome === 'active' ? active.find((entry) => entry.name === skill.name) : undefined;
        if (activeEntry) activeEntry.reasons = all;
      }
      considered.sort(
        (a, b) =>
          outcomeRank(a.outcome) - outcomeRank(b.outcome) ||
          b.score - a.score ||
          compareNames(a.name, b.name),
      );
      return {
        active,
        considered,
        consideredTotal:
          mentions.length +
          ranked.length +
          vetoed.length +
          below.length +
          considered.filter((entry) => entry.outcome === 'gated_out').length,
        tokensUsed,
        injection: active.map((skill) => skill.injection).join('\n\n'),
        durationMs: performance.now() - started,
      };
    } finally {
      for (const index of touched) {
        this.flags[index] = 0;
        this.keywordPoints[index] = 0;
        this.tagPoints[index] = 0;
        this.patternPoints[index] = 0;
        this.relevance[index] = 0;
      }
    }
  }

  private injectionFor(
    index: number,
    parameters: SelectOptions['parameters'],
    rethrow = false,
  ): string | { error: string | Error } {
    const skill = this.eligible[index]!;
    const cacheable = skill.parameters.length === 0;
    if (cacheable && this.injectionCache[index] !== undefined) return this.injectionCache[index]!;
    try {
      const body = capSkillBody(
        renderSkillBody(skill.body, skill.parameters, parameters?.[skill.name], skill.name, {
          ...(skill.template ? { template: skill.template } : {}),
          missing: 'ask',
        }),
        this.options.maxContextTokens,
      );
      const injection = buildSkillInjection({
        name: skill.name,
        version: skill.version,
        trust: skill.trust,
        body,
      });
      if (cacheable) this.injectionCache[index] = injection;
      return injection;
    } catch (error) {
      return { error: rethrow ? (error as Error) : (error as Error).message };
    }
  }

  /**
   * `/name`, `$name` and command mentions in the (NFKC, not case-folded) message; each carries its invocation,
   * the mention and the rest of its line as written (`/standup squad=payments days=3`), for parameter parsing.
   */
  private findMentions(
    text: string,
    considered: ConsideredSkill[],
  ): Array<{ index: number; reason: string; invocation: string }> {
    const mentions: Array<{ index: number; reason: string; invocation: string }> = [];
    for (const match of text.matchAll(MENTION)) {
      const sigil = match[1]!;
      const word = match[2]!.toLowerCase();
      const start = match.index + match[0].indexOf(sigil + match[2]!);
      const lineEnd = text.indexOf('\n', start);
      const invocation = text
        .slice(start, lineEnd === -1 ? text.length : lineEnd)
        .trim()
        .slice(0, MAX_INVOCATION_CHARS);
      const name = this.byName.has(word) ? word : sigil === '/' ? this.commands.get(word) : undefined;
      if (!name) continue;
      const index = this.eligibleIndex.get(name);
      if (index === undefined) {
        const skill = this.byName.get(name)!;
        if (!considered.some((entry) => entry.name === name)) {
          considered.push({
            name,
            trust: skill.trust,
            tier: 'mention',
            score: 0,
            costTokens: costOf(skill),
            outcome: 'gated_out',
            reasons: [`mentioned as ${sigil}${word} but gated out: ${skill.gating.reasons.join('; ')}`],
          });
        }
        continue;
      }
      if (mentions.some((mention) => mention.index === index)) continue;
      mentions.push({
        index,
        invocation,
        reason: `mentioned as ${sigil}${word}${name !== word ? ` (command of ${name})` : ''}: always active`,
      });
    }
    return mentions;
  }

}

/** The text BM25 ranks a skill by: its name (weight 3), description (2) and body headings (1). Tags and keywords are boosts. */
function lexicalDocument(skill: LoadedSkill): Bm25Document {
  const headings = [...skill.body.matchAll(HEADING)].slice(0, MAX_HEADINGS).map((match) => match[1]!);
  return {
    fields: [
      { text: skill.name.replace(/-/g, ' '), weight: 3 },
      { text: skill.description, weight: 2 },
      { text: headings.join('\n'), weight: 1 },
    ],
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Plain code-unit order: deterministic and locale-independent. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The prompt cost of a skill: its declared `max_context_tokens`, else body length / 4. */
export function costOf(skill: Pick<LoadedSkill, 'activation' | 'body'>): number {
  return skill.activation.maxContextTokens ?? Math.ceil(skill.body.length / 4);
}

function outcomeRank(outcome: SelectionOutcome): number {
  return outcome === 'active' ? 0 : outcome === 'vetoed' ? 2 : outcome === 'below_threshold' ? 3 : 1;
}
