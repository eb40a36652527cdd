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
import { prepareMessage, SkillMatchIndex, type PreparedMessage } from './skill-match-index.js';
import { explainMatches } from './selection-reasons.js';
import { SELECTION_SCORES } from './selection-scores.js';
import { TfidfIndex } from './tfidf-index.js';

/** Default number of skills active at once (`SKILLS_MAX_ACTIVE`). */
export const DEFAULT_MAX_ACTIVE = 3;
/** Default prompt budget for skills, in tokens (`SKILLS_MAX_CONTEXT_TOKENS`). */
export const DEFAULT_MAX_CONTEXT_TOKENS = 4000;
/** Default minimum cosine similarity for the TF-IDF tier. */
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

const MENTION = /(?:^|[^\p{L}\p{N}_/$.:-])([/$])([a-z0-9]+(?:-[a-z0-9]+)*)(?![\p{L}\p{N}_/-])/gu;
const MAX_TIER_ONE_SCORE =
  SELECTION_SCORES.keywordCap + SELECTION_SCORES.tagCap + SELECTION_SCORES.patternCap;

interface SelectionPick {
  index: number;
  tier: SelectionTier;
  score: number;
  extraReasons: string[];
  vetoed?: boolean;
}

/**
 * Deterministic skill selection over one snapshot. Building it indexes every eligible skill once
 * (terms, pattern literals, TF-IDF vectors, costs, name order); `select` then only touches the skills its
 * message hits, scores them in typed arrays, orders them by bucketing the small integer scores, and writes
 * reasons only for the skills it reports.
 */
export class SkillSelector {
  private readonly eligible: LoadedSkill[];
  private readonly matchIndex: SkillMatchIndex;
  private readonly tfidf: TfidfIndex;
  private readonly byName = new Map<string, LoadedSkill>();
  private readonly eligibleIndex = new Map<string, number>();
  private readonly commands = new Map<string, string>();
  private readonly options: Required<SkillSelectorOptions>;
  private readonly costs: Int32Array;
  private readonly nameRank: Int32Array;
  private readonly byRank: Int32Array;
  private readonly injectionCache: Array<string | undefined>;
  // Scratch space reused by every call (select is synchronous, so calls never overlap).
  private readonly keywordPoints: Int32Array;
  private readonly tagPoints: Int32Array;
  private readonly patternPoints: Int32Array;
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
    this.byRank = Int32Array.from(sorted);
    this.nameRank = new Int32Array(count);
    sorted.forEach((index, rank) => (this.nameRank[index] = rank));
    this.injectionCache = new Array(count);
    this.keywordPoints = new Int32Array(count);
    this.tagPoints = new Int32Array(count);
    this.patternPoints = new Int32Array(count);
    this.flags = new Uint8Array(count);
    this.matchIndex = new SkillMatchIndex(
      this.eligible.map((skill) => skill.activation),
      this.options.patternInputCap,
    );
    this.tfidf = new TfidfIndex(
      this.eligible.map((skill, id) => ({
        id,
        text: `${skill.name.replace(/-/g, ' ')} ${skill.description} ${skill.activation.tags.join(' ')}`,
      })),
    );
  }

  /** Number of eligible (indexed) skills. */
  get size(): number {
    return this.eligible.length;
  }

  /** Scores every skill against the message and activates the best within max active and the token budget. */
  select(message: string, options: SelectOptions = {}): SelectResult {
    const started = performance.now();
    const maxActive = options.maxActive ?? this.options.maxActive;
    const budget = options.maxContextTokens ?? this.options.maxContextTokens;
    const limit = this.options.consideredLimit;
    const folded = foldText(
      message.length > this.options.termInputCap ? message.slice(0, this.options.termInputCap) : message,
    );

    // 1. Deterministic tier: accumulate points per skill.
    const prepared = prepareMessage(folded);
    const touched: number[] = [];
    const touch = (index: number) => {
      if (this.flags[index] === 0) {
        this.flags[index] = 1;
        touched.push(index);
      }
    };
    this.matchIndex.forEachTermHit(prepared, (posting, exact) => {
      touch(posting.skill);
      if (posting.kind === 'exclude') this.flags[posting.skill] = 2;
      else if (posting.kind === 'keyword')
        this.keywordPoints[posting.skill]! += exact
          ? SELECTION_SCORES.exactKeyword
          : SELECTION_SCORES.substringKeyword;
      else if (exact) this.tagPoints[posting.skill]! += SELECTION_SCORES.tag;
    });
    this.matchIndex.forEachPatternHit(prepared, (skill) => {
      touch(skill);
      this.patternPoints[skill]! += SELECTION_SCORES.pattern;
    });
    const score = (index: number) =>
      Math.min(this.keywordPoints[index]!, SELECTION_SCORES.keywordCap) +
      Math.min(this.tagPoints[index]!, SELECTION_SCORES.tagCap) +
      Math.min(this.patternPoints[index]!, SELECTION_SCORES.patternCap);

    try {
      // 2. Mentions, always first.
      const considered: ConsideredSkill[] = [];
      const mentions = this.findMentions(folded, considered);
      const picks: SelectionPick[] = mentions.map((mention) => ({
        index: mention.index,
        tier: 'mention',
        score: this.flags[mention.index] === 1 ? score(mention.index) : 0,
        extraReasons: [mention.reason],
      }));
      const mentioned = new Set(mentions.map((mention) => mention.index));

      // 3. Keyword tier in score order (bucketed: scores are small integers), names breaking ties.
      const buckets: number[][] = Array.from({ length: MAX_TIER_ONE_SCORE + 1 }, () => []);
      const vetoed: number[] = [];
      let scored = 0;
      for (const index of touched) {
        if (mentioned.has(index)) continue;
        if (this.flags[index] === 2) vetoed.push(index);
        else {
          const points = score(index);
          if (points > 0) {
            buckets[points]!.push(this.nameRank[index]!);
            scored++;
          }
        }
      }
      const similarity = scored === 0 ? this.similarityPicks(message, mentioned, considered) : [];

      // 4. Greedy fill.
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
              injection,
            });
            tokensUsed += cost;
          } else {
            outcome = 'render_failed';
            pick.extraReasons.push(injection.error);
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
      let walking = true;
      for (const pick of picks) decide(pick);
      for (let points = MAX_TIER_ONE_SCORE; points > 0 && walking; points--) {
        const bucket = buckets[points]!;
        if (bucket.length === 0) continue;
        if (bucket.length > 1) bucket.sort((a, b) => a - b);
        for (const rank of bucket) {
          walking = decide({ index: this.byRank[rank]!, tier: 'keyword', score: points, extraReasons: [] });
          if (!walking) break;
        }
      }
      for (const pick of similarity) if (!decide(pick)) break;
      for (const index of vetoed) {
        if (reported >= limit) break;
        outcomes.push({
          pick: { index, tier: 'keyword', score: 0, extraReasons: [], vetoed: true },
          outcome: 'vetoed',
        });
        reported++;
      }

      // 5. Reasons, only for what is reported.
      const reasons = this.reasonsFor(new Set(outcomes.map((entry) => entry.pick.index)), prepared);
      for (const { pick, outcome } of outcomes) {
        const skill = this.eligible[pick.index]!;
        const all =
          pick.tier === 'similarity'
            ? pick.extraReasons
            : [
                ...(pick.tier === 'mention' ? pick.extraReasons.slice(0, 1) : []),
                ...(reasons.get(pick.index) ?? []),
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
          scored +
          vetoed.length +
          similarity.length +
          considered.filter((entry) => entry.outcome === 'gated_out' || entry.outcome === 'below_threshold')
            .length,
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
      }
    }
  }

  private injectionFor(index: number, parameters: SelectOptions['parameters']): string | { error: string } {
    const skill = this.eligible[index]!;
    const cacheable = skill.parameters.length === 0;
    if (cacheable && this.injectionCache[index] !== undefined) return this.injectionCache[index]!;
    try {
      const body = capSkillBody(
        renderSkillBody(skill.body, skill.parameters, parameters?.[skill.name], skill.name),
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
      return { error: (error as Error).message };
    }
  }

  /** Reasons in words for the reported skills only. */
  private reasonsFor(indices: Set<number>, message: PreparedMessage): Map<number, string[]> {
    const out = new Map<number, string[]>();
    for (const index of indices)
      out.set(index, explainMatches(this.eligible[index]!.activation, message, this.options.patternInputCap));
    return out;
  }

  private findMentions(
    folded: string,
    considered: ConsideredSkill[],
  ): Array<{ index: number; reason: string }> {
    const mentions: Array<{ index: number; reason: string }> = [];
    for (const match of folded.matchAll(MENTION)) {
      const [, sigil, word] = match;
      const name = this.byName.has(word!) ? word! : sigil === '/' ? this.commands.get(word!) : undefined;
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
        reason: `mentioned as ${sigil}${word}${name !== word ? ` (command of ${name})` : ''}: always active`,
      });
    }
    return mentions;
  }

  private similarityPicks(
    message: string,
    mentioned: Set<number>,
    considered: ConsideredSkill[],
  ): SelectionPick[] {
    const picks: SelectionPick[] = [];
    for (const hit of this.tfidf.query(
      message.slice(0, this.options.termInputCap),
      this.options.similarityThreshold / 2,
      10,
    )) {
      if (mentioned.has(hit.id) || this.flags[hit.id] === 2) continue;
      const skill = this.eligible[hit.id]!;
      const similarity = Math.round(hit.similarity * 1000) / 1000;
      const reason = `similar to the description (TF-IDF cosine ${similarity}, terms: ${hit.terms.join(', ')})`;
      if (hit.similarity < this.options.similarityThreshold) {
        considered.push({
          name: skill.name,
          trust: skill.trust,
          tier: 'similarity',
          score: similarity,
          costTokens: this.costs[hit.id]!,
          outcome: 'below_threshold',
          reasons: [reason, `below the threshold ${this.options.similarityThreshold}`],
        });
        continue;
      }
      picks.push({ index: hit.id, tier: 'similarity', score: similarity, extraReasons: [reason] });
    }
    return picks;
  }
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
