import type { SkillActivation } from './parsed-skill.js';
import { testGuarded } from './regex-guard.js';
import { SELECTION_SCORES } from './selection-scores.js';
import { termOccurs, type PreparedMessage } from './skill-match-index.js';

/**
 * Says in words what of one skill's declared activation matched a message, with the same rules and points as
 * the index (exclude vetoes, keywords and tags as whole words or their inflections, patterns, and the caps).
 * Run only for the skills a result reports: at most 20 + 20 + 10 + 5 checks each.
 */
export function explainMatches(
  activation: SkillActivation,
  message: PreparedMessage,
  patternInputCap: number,
): string[] {
  const reasons: string[] = [];
  for (const term of [...activation.excludeKeywords].sort(byCodeUnits))
    if (termOccurs(message, term)) reasons.push(`vetoed: exclude keyword "${term}" found`);
  let keyword = 0;
  for (const term of [...activation.keywords].sort(byCodeUnits)) {
    if (!termOccurs(message, term)) continue;
    keyword += SELECTION_SCORES.keyword;
    reasons.push(`keyword "${term}" +${SELECTION_SCORES.keyword}`);
  }
  let tag = 0;
  for (const term of [...activation.tags].sort(byCodeUnits)) {
    if (!termOccurs(message, term)) continue;
    tag += SELECTION_SCORES.tag;
    reasons.push(`tag "${term}" +${SELECTION_SCORES.tag}`);
  }
  const patternText = message.folded.slice(0, patternInputCap);
  let pattern = 0;
  for (const guarded of activation.patterns) {
    if (!testGuarded(guarded, patternText, patternInputCap)) continue;
    pattern += SELECTION_SCORES.pattern;
    reasons.push(`pattern /${guarded.source}/ +${SELECTION_SCORES.pattern}`);
  }
  noteCap(keyword, SELECTION_SCORES.keywordCap, 'keyword', reasons);
  noteCap(tag, SELECTION_SCORES.tagCap, 'tag', reasons);
  noteCap(pattern, SELECTION_SCORES.patternCap, 'pattern', reasons);
  return reasons;
}

function noteCap(total: number, cap: number, label: string, reasons: string[]): void {
  if (total > cap) reasons.push(`${label} points capped at ${cap} (raw ${total})`);
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
