import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSkillText, SkillSelector, type LoadedSkill } from '../src/index.js';

/**
 * Selection quality on a labelled set: 60 target skills written in the published formats, among 500 generated
 * distractors of the same shapes (bench/support/skill-corpus.mjs), and 48 ordinary requests in English and
 * Chinese, each labelled with the skill a person would pick. `pnpm bench skill-select` prints the same figures.
 */
const DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'selection');
const read = <T>(file: string): T => JSON.parse(readFileSync(join(DIR, file), 'utf8')) as T;

function load(entries: Array<{ folder: string; text: string }>): LoadedSkill[] {
  return entries.map(({ folder, text }) => {
    const result = parseSkillText(text, { path: `/corpus/${folder}/SKILL.md` });
    if (!result.ok) throw new Error(`${folder}: ${result.rejection.reason}`);
    return {
      ...result.skill,
      trust: 'TRUSTED',
      source: 'workspace',
      resources: { scripts: [], references: [], assets: [] },
      gating: { eligible: true, reasons: [] },
    };
  });
}

const targets = load(read('targets.json'));
const distractors = load(read('distractors.json'));
const labels = read<Array<{ message: string; expected: string[] }>>('labels.json');
const selector = new SkillSelector([...targets, ...distractors]);

/** The selector's ranking for a message: active skills, then the other candidates, best first. */
function ranking(message: string): string[] {
  return selector
    .select(message)
    .considered.filter((entry) => !['vetoed', 'gated_out', 'below_threshold'].includes(entry.outcome))
    .map((entry) => entry.name);
}

describe('selection quality on the labelled set', () => {
  it('has at least 40 labelled messages in English and Chinese over at least 500 skills', () => {
    expect(labels.length).toBeGreaterThanOrEqual(40);
    expect(labels.filter((label) => /\p{Script=Han}/u.test(label.message)).length).toBeGreaterThanOrEqual(10);
    expect(selector.size).toBeGreaterThanOrEqual(500);
  });

  it('puts the labelled skill first for at least 80% and in the top 3 for at least 90%', () => {
    let top1 = 0;
    let top3 = 0;
    const misses: string[] = [];
    for (const { message, expected } of labels) {
      const ranked = ranking(message);
      if (expected.includes(ranked[0] ?? '')) top1++;
      else misses.push(`${message} → ${ranked.slice(0, 3).join(', ') || 'nothing'} (want ${expected[0]})`);
      if (ranked.slice(0, 3).some((name) => expected.includes(name))) top3++;
    }
    const p1 = top1 / labels.length;
    const p3 = top3 / labels.length;
    if (p1 < 0.8 || p3 < 0.9) console.log(`P@1 ${p1} P@3 ${p3}\n${misses.join("\n")}`);
    expect(p1).toBeGreaterThanOrEqual(0.8);
    expect(p3).toBeGreaterThanOrEqual(0.9);
  });

  it('activates nothing for small talk', () => {
    expect(selector.select('what a lovely afternoon, thanks for everything').active).toEqual([]);
  });
});
