import { describe, expect, it } from '@jest/globals';
import { makeSkill } from '../test/loaded-skill-fixture.js';
import { collectTriggers, skillForCommand } from './skill-triggers.js';

describe('collectTriggers', () => {
  it('routes each command to the first skill, reports duplicates and bad crons, skips gated-out skills', () => {
    const table = collectTriggers(
      [
        makeSkill({ name: 'first', frontMatter: 'triggers: [/deploy, {schedule: "*/15 * * * *"}]' }),
        makeSkill({
          name: 'second',
          frontMatter: 'triggers: [/deploy, {cron: "not a cron"}, {webhook: push}]',
        }),
        makeSkill({ name: 'gated', eligible: false, frontMatter: 'triggers: [/gated]' }),
      ],
      new Date('2026-01-01T00:07:00Z'),
    );
    expect(table.commands).toEqual([{ command: '/deploy', skill: 'first' }]);
    expect(table.schedules).toEqual([
      { cron: '*/15 * * * *', skill: 'first', nextRun: '2026-01-01T00:15:00.000Z' },
    ]);
    expect(table.webhooks).toEqual([{ event: 'push', skill: 'second' }]);
    expect(table.invalid.map((entry) => [entry.skill, entry.trigger])).toEqual([
      ['second', '/deploy'],
      ['second', 'not a cron'],
    ]);
    expect(skillForCommand(table, 'DEPLOY')).toBe('first');
    expect(skillForCommand(table, '/gated')).toBeUndefined();
  });
});
