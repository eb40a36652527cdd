import type { SkillSearchHit } from '@talon/contracts';
import { foldText, termWeight } from './cjk-text.js';
import type { LoadedSkill } from './loaded-skill.js';
import { toSkillSummary } from './skill-discovery.js';
import { TfidfIndex } from './tfidf-index.js';

/** Default number of search hits. */
export const DEFAULT_SEARCH_LIMIT = 10;

/**
 * Ranked search over skills for `skill_search`: name matches first, then keywords and tags, then
 * description similarity. Built once per snapshot; gated-out skills are included (their summary says why).
 */
export class SkillSearch {
  private readonly tfidf: TfidfIndex;

  constructor(private readonly skills: readonly LoadedSkill[]) {
    this.tfidf = new TfidfIndex(
      skills.map((skill, id) => ({
        id,
        text: `${skill.name.replace(/-/g, ' ')} ${skill.description} ${skill.activation.keywords.join(' ')} ${skill.activation.tags.join(' ')}`,
      })),
    );
  }

  /** The best matches for a query, best first. */
  search(query: string, limit = DEFAULT_SEARCH_LIMIT): SkillSearchHit[] {
    const folded = foldText(query).trim();
    if (folded.length === 0) return [];
    const words = folded.split(/[\s,]+/).filter((word) => termWeight(word) >= 2);
    const scores = new Map<number, { score: number; reasons: string[] }>();
    const add = (id: number, points: number, reason: string) => {
      const entry = scores.get(id) ?? { score: 0, reasons: [] };
      entry.score += points;
      entry.reasons.push(reason);
      scores.set(id, entry);
    };
    this.skills.forEach((skill, id) => {
      if (skill.name === folded || skill.name === folded.replace(/\s+/g, '-'))
        add(id, 100, 'name equals the query');
      else if (words.some((word) => skill.name.includes(word))) add(id, 40, 'name contains a query word');
      const keywords = skill.activation.keywords.filter(
        (keyword) => folded.includes(keyword) || words.includes(keyword),
      );
      if (keywords.length > 0) add(id, 20 * keywords.length, `keywords: ${keywords.join(', ')}`);
      const tags = skill.activation.tags.filter((tag) => words.includes(tag) || folded.includes(tag));
      if (tags.length > 0) add(id, 10 * tags.length, `tags: ${tags.join(', ')}`);
    });
    for (const hit of this.tfidf.query(query, 0.05, 50))
      add(
        hit.id,
        Math.round(hit.similarity * 50 * 100) / 100,
        `description similarity ${hit.similarity.toFixed(2)}`,
      );
    return [...scores.entries()]
      .sort(
        (a, b) => b[1].score - a[1].score || this.skills[a[0]]!.name.localeCompare(this.skills[b[0]]!.name),
      )
      .slice(0, limit)
      .map(([id, entry]) => ({
        skill: toSkillSummary(this.skills[id]!),
        score: entry.score,
        reasons: entry.reasons,
      }));
  }
}
