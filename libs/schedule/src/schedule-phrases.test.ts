import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import type { ScheduleParseResult } from '@talon/contracts';
import { parseSchedule } from './schedule-parser.js';
import { detectLanguage } from './schedule-text.js';

/**
 * [text, kind, family or problem, cron / instant / everyMs of the (first) schedule, task, target], computed
 * at Tuesday 1 December 2026, 10:00 in Shanghai. The benchmark times the same phrases.
 */
type Phrase = [string, ScheduleParseResult['kind'], string, string | number | null, string, string];

function summary(result: ScheduleParseResult): Phrase {
  const schedule =
    'schedule' in result
      ? result.schedule
      : 'candidates' in result
        ? result.candidates[0]!.schedule
        : undefined;
  const value =
    schedule === undefined
      ? null
      : schedule.type === 'cron'
        ? schedule.cron
        : schedule.type === 'once'
          ? schedule.at
          : schedule.everyMs;
  const detail = result.kind === 'exact' ? result.family : result.kind === 'none' ? '' : result.problem;
  const target = result.kind === 'none' ? '' : result.target + (result.hand ? `:${result.hand}` : '');
  return ['', result.kind, detail, value, result.task, target];
}

const fixture = JSON.parse(
  readFileSync(fileURLToPath(new URL('../test/schedule-phrases.json', import.meta.url)), 'utf8'),
) as { now: string; timezone: string; hands: string[]; phrases: Phrase[] };

describe('parseSchedule phrases', () => {
  it('covers at least 80 phrases across both languages', () => {
    expect(fixture.phrases.length).toBeGreaterThanOrEqual(80);
    expect(new Set(fixture.phrases.map(([text]) => detectLanguage(text)))).toEqual(new Set(['zh', 'en']));
  });

  it.each(fixture.phrases)('%s', (text, ...expected) => {
    const result = parseSchedule(text, {
      timezone: fixture.timezone,
      now: fixture.now,
      hands: fixture.hands,
    });
    expect(summary(result).slice(1)).toEqual(expected);
  });
});
