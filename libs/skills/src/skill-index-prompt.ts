import type { SkillTrust } from '@talon/contracts';
import { isCjkChar } from './cjk-text.js';
import { escapeSkillBody } from './skill-injection.js';

/** Default token budget of the model-mode skill index (`SKILLS_INDEX_MAX_TOKENS`). */
export const DEFAULT_INDEX_MAX_TOKENS = 1500;
/** Longest one-line description in the index, in characters. */
export const INDEX_LINE_MAX_CHARS = 140;

/** What the index needs from a skill. */
export interface SkillIndexEntry {
  name: string;
  description: string;
  trust: SkillTrust;
}

/** The compact index placed in the system prompt in `model` and `hybrid` mode. */
export interface SkillIndexPrompt {
  /** The `<available_skills>` block; empty when there is nothing to list. */
  text: string;
  /** Names listed, in order. */
  listed: string[];
  /** Skills left out to stay within the budget. */
  omitted: number;
  /** Estimated tokens of `text`. */
  tokens: number;
}

/**
 * Token estimate used for skill prompts: one token per CJK character, one per four other characters. Close
 * enough for budgeting; never used for billing.
 */
export function estimateTokens(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const char of text) {
    if (isCjkChar(char)) cjk++;
    else other++;
  }
  return cjk + Math.ceil(other / 4);
}

/** The first sentence or line of a description, cut to {@link INDEX_LINE_MAX_CHARS} with an ellipsis. */
export function oneLineDescription(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?。！？])(?:\s|$)/u.exec(flat)?.[1] ?? flat;
  const chars = [...sentence];
  return chars.length <= INDEX_LINE_MAX_CHARS ? sentence : `${chars.slice(0, INDEX_LINE_MAX_CHARS - 1).join('')}…`;
}

/**
 * The compact skill index: one line per skill (name, trust, one-line description), in the order given (the
 * caller ranks them by relevance to the message), cut when the next line would pass the token budget. Names
 * and descriptions are escaped like skill bodies, so an installed skill's description cannot open or close a
 * block. The header tells the model how to load a skill and how many were left out.
 */
export function buildSkillIndexPrompt(
  skills: readonly SkillIndexEntry[],
  maxTokens: number = DEFAULT_INDEX_MAX_TOKENS,
): SkillIndexPrompt {
  if (skills.length === 0 || maxTokens <= 0) return { text: '', listed: [], omitted: skills.length, tokens: 0 };
  const header = (listed: number) =>
    `<available_skills>\nSkills you can load with skill_load (then read their files with skill_read_file). ${listed} of ${skills.length} listed, most relevant first; skill_search finds the others.`;
  const footer = '</available_skills>';
  const lines: string[] = [];
  const listed: string[] = [];
  let used = estimateTokens(header(skills.length)) + estimateTokens(footer) + 2;
  for (const skill of skills) {
    const line = escapeSkillBody(`- ${skill.name} (${skill.trust.toLowerCase()}): ${oneLineDescription(skill.description)}`);
    const cost = estimateTokens(line) + 1;
    if (used + cost > maxTokens) break;
    used += cost;
    lines.push(line);
    listed.push(skill.name);
  }
  if (lines.length === 0) return { text: '', listed: [], omitted: skills.length, tokens: 0 };
  const text = `${header(listed.length)}\n${lines.join('\n')}\n${footer}`;
  return { text, listed, omitted: skills.length - listed.length, tokens: estimateTokens(text) };
}
