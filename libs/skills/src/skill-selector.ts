import type { ActiveSkill, ConsideredSkill, SelectResult, SelectionOutcome, SelectionTier } from '@talon/contracts';
import { foldText } from './cjk-text.js';
import type { LoadedSkill } from './loaded-skill.js';
import { DEFAULT_MATCH_INPUT_CAP } from './regex-guard.js';
import { renderSkillBody } from './skill-body-template.js';
import { buildSkillInjection } from './skill-injection.js';
import { SkillMatchIndex } from './skill-match-index.js';
import { TfidfIndex } from './tfidf-index.js';

/** Default number of skills active at once (`SKILLS_MAX_ACTIVE`). */
export const DEFAULT_MAX_ACTIVE = 3;
/** Default prompt budget for skills, in tokens (`SKILLS_MAX_CONTEXT_TOKENS`). */
export const DEFAULT_MAX_CONTEXT_TOKENS = 4000;
/** Default minimum cosine similarity for the TF-IDF tier. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.25;
/** Default number of message characters matched (terms and mentions); longer messages are cut. */
export const DEFAULT_TERM_INPUT_CAP = 16384;

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
}

/** Per-call overrides. */
export interface SelectOptions {
  maxActive?: number;
  maxContextTokens?: number;
  /** Parameter values by skill name. */
  parameters?: Record<string, Record<string, unknown>>;
}

interface Candidate {
  index: number;
  tier: SelectionTier;
  score: number;
  reasons: string[];
  vetoed: boolean;
  mentionOrder?: number;
}

const MENTION = /(?:^|[^\p{L}\p{N}_/$.:-])([/$])([a-z0-9]+(?:-[a-z0-9]+)*)(?![\p{L}\p{N}_/-])/gu;

/**
 * Deterministic skill selection over one snapshot. Building it indexes every eligible skill once
 * (terms, pattern literals, TF-IDF vectors); `select` then only touches the skills its message hits.
 */
export class SkillSelector {
  private readonly eligible: LoadedSkill[];
  private readonly matchIndex: SkillMatchIndex;
  private readonly tfidf: TfidfIndex;
  private readonly byName = new Map<string, LoadedSkill>();
  private readonly eligibleIndex = new Map<string, number>();
  private readonly commands = new Map<string, string>();
  private readonly options: Required<SkillSelectorOptions>;

  constructor(skills: readonly LoadedSkill[], options: SkillSelectorOptions = {}) {
    this.options = {
      maxActive: options.maxActive ?? DEFAULT_MAX_ACTIVE,
      maxContextTokens: options.maxContextTokens ?? DEFAULT_MAX_CONTEXT_TOKENS,
      similarityThreshold: options.similarityThreshold ?? DEFAULT_SIMILARITY_THRESHOLD,
      patternInputCap: options.patternInputCap ?? DEFAULT_MATCH_INPUT_CAP,
      termInputCap: options.termInputCap ?? DEFAULT_TERM_INPUT_CAP,
    };
    this.eligible = skills.filter((skill) => skill.gating.eligible);
    for (const skill of skills) this.byName.set(skill.name, skill);
    this.eligible.forEach((skill, index) => {
      this.eligibleIndex.set(skill.name, index);
      for (const trigger of skill.triggers) if (trigger.kind === 'command' && !this.commands.has(trigger.command.slice(1))) this.commands.set(trigger.command.slice(1), skill.name);
    });
    this.matchIndex = new SkillMatchIndex(this.eligible.map((skill) => skill.activation), this.options.patternInputCap);
    this.tfidf = new TfidfIndex(this.eligible.map((skill, id) => ({ id, text: `${skill.name.replace(/-/g, ' ')} ${skill.description} ${skill.activation.tags.join(' ')}` })));
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
    const folded = foldText(message.length > this.options.termInputCap ? message.slice(0, this.options.termInputCap) : message);
    const candidates = this.scoreDeterministic(folded);
    const considered: ConsideredSkill[] = [];
    this.findMentions(folded, candidates, considered);
    const hasMatch = [...candidates.values()].some((candidate) => !candidate.vetoed && candidate.tier === 'keyword' && candidate.score > 0);
    if (!hasMatch) this.scoreSimilarity(message, candidates, considered);

    const ordered = [...candidates.values()].sort(
      (a, b) =>
        (a.mentionOrder ?? Infinity) - (b.mentionOrder ?? Infinity) ||
        b.score - a.score ||
        this.eligible[a.index]!.name.localeCompare(this.eligible[b.index]!.name),
    );
    const active: ActiveSkill[] = [];
    let tokensUsed = 0;
    for (const candidate of ordered) {
      const skill = this.eligible[candidate.index]!;
      const cost = costOf(skill);
      const isMention = candidate.mentionOrder !== undefined;
      let outcome: SelectionOutcome = 'active';
      if (candidate.vetoed && !isMention) outcome = 'vetoed';
      else if (!isMention && active.length >= maxActive) {
        outcome = 'over_max_active';
        candidate.reasons.push(`not activated: ${maxActive} skills already active`);
      } else if (!isMention && tokensUsed + cost > budget) {
        outcome = 'over_budget';
        candidate.reasons.push(`not activated: costs ${cost} tokens, ${Math.max(0, budget - tokensUsed)} of ${budget} left`);
      }
      if (outcome === 'active') {
        try {
          const body = renderSkillBody(skill.body, skill.parameters, options.parameters?.[skill.name], skill.name);
          active.push({
            name: skill.name,
            version: skill.version,
            trust: skill.trust,
            tier: candidate.tier,
            score: candidate.score,
            costTokens: cost,
            reasons: candidate.reasons,
            allowedTools: skill.allowedTools,
            injection: buildSkillInjection({ name: skill.name, version: skill.version, trust: skill.trust, body }),
          });
          tokensUsed += cost;
        } catch (error) {
          outcome = 'render_failed';
          candidate.reasons.push((error as Error).message);
        }
      }
      considered.push({ name: skill.name, trust: skill.trust, tier: candidate.tier, score: candidate.score, costTokens: cost, outcome, reasons: candidate.reasons });
    }
    return {
      active,
      considered: considered.sort((a, b) => outcomeRank(a.outcome) - outcomeRank(b.outcome) || b.score - a.score || a.name.localeCompare(b.name)),
      tokensUsed,
      injection: active.map((skill) => skill.injection).join('\n\n'),
      durationMs: performance.now() - started,
    };
  }

  private scoreDeterministic(folded: string): Map<number, Candidate> {
    const candidates = new Map<number, Candidate>();
    const totals = new Map<number, { keyword: number; tag: number; pattern: number }>();
    const get = (index: number) => {
      let candidate = candidates.get(index);
      if (!candidate) {
        candidates.set(index, (candidate = { index, tier: 'keyword', score: 0, reasons: [], vetoed: false }));
        totals.set(index, { keyword: 0, tag: 0, pattern: 0 });
      }
      return candidate;
    };
    const termMatches = this.matchIndex.matchTerms(folded).sort((a, b) => a.skill - b.skill || kindRank(a.kind) - kindRank(b.kind) || a.term.localeCompare(b.term));
    for (const match of termMatches) {
      const candidate = get(match.skill);
      const total = totals.get(match.skill)!;
      if (match.kind === 'exclude') {
        candidate.vetoed = true;
        candidate.reasons.push(`vetoed: exclude keyword "${match.term}" found`);
      } else if (match.kind === 'keyword') {
        const points = match.match === 'exact' ? SELECTION_SCORES.exactKeyword : SELECTION_SCORES.substringKeyword;
        total.keyword += points;
        candidate.reasons.push(`keyword "${match.term}" ${match.match === 'exact' ? 'exact' : 'inside a word'} +${points}`);
      } else if (match.match === 'exact') {
        total.tag += SELECTION_SCORES.tag;
        candidate.reasons.push(`tag "${match.term}" +${SELECTION_SCORES.tag}`);
      }
    }
    for (const match of this.matchIndex.matchPatterns(folded)) {
      get(match.skill);
      totals.get(match.skill)!.pattern += SELECTION_SCORES.pattern;
      candidates.get(match.skill)!.reasons.push(`pattern /${match.source}/ +${SELECTION_SCORES.pattern}`);
    }
    for (const [index, total] of totals) {
      const candidate = candidates.get(index)!;
      const keyword = capped(total.keyword, SELECTION_SCORES.keywordCap, 'keyword', candidate.reasons);
      const tag = capped(total.tag, SELECTION_SCORES.tagCap, 'tag', candidate.reasons);
      const pattern = capped(total.pattern, SELECTION_SCORES.patternCap, 'pattern', candidate.reasons);
      candidate.score = keyword + tag + pattern;
      if (candidate.vetoed) candidate.score = 0;
      if (!candidate.vetoed && candidate.score === 0) candidates.delete(index);
    }
    return candidates;
  }

  private findMentions(folded: string, candidates: Map<number, Candidate>, considered: ConsideredSkill[]): void {
    let order = 0;
    for (const match of folded.matchAll(MENTION)) {
      const [, sigil, word] = match;
      const name = this.byName.has(word!) ? word! : sigil === '/' ? this.commands.get(word!) : undefined;
      if (!name) continue;
      const index = this.eligibleIndex.get(name);
      if (index === undefined) {
        const skill = this.byName.get(name)!;
        if (!considered.some((entry) => entry.name === name)) {
          considered.push({ name, trust: skill.trust, tier: 'mention', score: 0, costTokens: costOf(skill), outcome: 'gated_out', reasons: [`mentioned as ${sigil}${word} but gated out: ${skill.gating.reasons.join('; ')}`] });
        }
        continue;
      }
      const existing = candidates.get(index);
      if (existing?.mentionOrder !== undefined) continue;
      const candidate = existing ?? { index, tier: 'mention' as SelectionTier, score: 0, reasons: [], vetoed: false };
      candidate.tier = 'mention';
      candidate.mentionOrder = order++;
      candidate.reasons.unshift(`mentioned as ${sigil}${word}${name !== word ? ` (command of ${name})` : ''}: always active`);
      candidates.set(index, candidate);
    }
  }

  private scoreSimilarity(message: string, candidates: Map<number, Candidate>, considered: ConsideredSkill[]): void {
    const hits = this.tfidf.query(message.slice(0, this.options.termInputCap), this.options.similarityThreshold / 2, 10);
    for (const hit of hits) {
      const existing = candidates.get(hit.id);
      if (existing?.vetoed || existing?.mentionOrder !== undefined) continue;
      const skill = this.eligible[hit.id]!;
      const similarity = Math.round(hit.similarity * 1000) / 1000;
      const reason = `similar to the description (TF-IDF cosine ${similarity}, terms: ${hit.terms.join(', ')})`;
      if (hit.similarity < this.options.similarityThreshold) {
        considered.push({ name: skill.name, trust: skill.trust, tier: 'similarity', score: similarity, costTokens: costOf(skill), outcome: 'below_threshold', reasons: [reason, `below the threshold ${this.options.similarityThreshold}`] });
        continue;
      }
      candidates.set(hit.id, { index: hit.id, tier: 'similarity', score: similarity, reasons: [reason], vetoed: false });
    }
  }
}

/** The prompt cost of a skill: its declared `max_context_tokens`, else body length / 4. */
export function costOf(skill: Pick<LoadedSkill, 'activation' | 'body'>): number {
  return skill.activation.maxContextTokens ?? Math.ceil(skill.body.length / 4);
}

function capped(total: number, cap: number, label: string, reasons: string[]): number {
  if (total <= cap) return total;
  reasons.push(`${label} points capped at ${cap} (raw ${total})`);
  return cap;
}

function kindRank(kind: string): number {
  return kind === 'exclude' ? 0 : kind === 'keyword' ? 1 : 2;
}

function outcomeRank(outcome: SelectionOutcome): number {
  return outcome === 'active' ? 0 : outcome === 'vetoed' ? 2 : outcome === 'below_threshold' ? 3 : 1;
}
