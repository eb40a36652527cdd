import { describe, expect, it } from '@jest/globals';
import type { Hand } from '@talon/contracts';
import { handRoutines } from './hand-routines.js';
import { diffOwnedRoutines } from './owned-routines.js';
import { skillRoutineId } from './skill-routines.js';

const NOW = new Date('2026-03-01T10:00:00Z');

function hand(id: string, triggers: Partial<Hand['triggers']>, system = false): Hand {
  return {
    id,
    name: id,
    version: '1.0.0',
    description: id,
    dialect: 'zclaw',
    system,
    tags: [],
    tools: [],
    effects: [],
    skills: [],
    mcpServers: [],
    requiresApproval: false,
    requires: [],
    settings: [],
    agent: { systemPrompt: '' },
    triggers: { manual: true, webhook: false, events: [], ...triggers },
    workflow: [],
    metrics: [],
    warnings: [],
  };
}

describe('hand routines', () => {
  it('turns every kind of hand trigger into a routine running the hand, owned by hand:<id>', () => {
    const routines = handRoutines(
      [
        hand('digest', {
          schedule: { cron: '0 8 * * *', timezone: 'UTC' },
          intervalSeconds: 90,
          once: true,
          webhook: true,
          events: [
            { type: 'chat.intent', pattern: '(?i)watch|盯', priority: 3 },
            { type: 'deploy.finished', priority: 0 },
            { type: 'chat', priority: 0 },
          ],
        }),
      ],
      NOW,
    );
    expect(routines.map((routine) => routine.request.trigger)).toEqual([
      { kind: 'cron', expression: '0 8 * * *', timezone: 'UTC' },
      { kind: 'interval', everyMs: 90_000 },
      { kind: 'once', at: '2026-03-01T10:00:01.000Z' },
      { kind: 'webhook' },
      { kind: 'event', pattern: 'watch|盯', flags: 'i' },
      { kind: 'system_event', name: 'deploy.finished' },
    ]);
    for (const routine of routines) {
      expect(routine.owner).toBe('hand:digest');
      expect(routine.request.action).toEqual({ kind: 'hand', hand: 'digest' });
      expect(routine.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(routines.map((routine) => routine.id)).size).toBe(routines.length);
  });

  it('derives the same ids on every orchestrator and at every sync, distinct from skill ids', () => {
    const digest = hand('digest', { schedule: { cron: '0 8 * * *' }, once: true });
    const first = handRoutines([digest], NOW).map((routine) => routine.id);
    expect(handRoutines([digest], new Date(NOW.getTime() + 60_000)).map((routine) => routine.id)).toEqual(
      first,
    );
    const changed = handRoutines([hand('digest', { schedule: { cron: '0 9 * * *' } })], NOW);
    expect(changed[0]!.id).not.toBe(first[0]);
    expect(first).not.toContain(skillRoutineId('digest\nschedule\n0 8 * * *\n'));
  });

  it('asks nothing for manual-only and system hands', () => {
    expect(handRoutines([hand('idle', {}), hand('_reminder', { webhook: true }, true)], NOW)).toEqual([]);
  });

  it('removes routines under the prefix whose trigger is gone, except those of owners kept', () => {
    const [wanted] = handRoutines([hand('a', { webhook: true })], NOW);
    const diff = diffOwnedRoutines(
      [wanted!],
      [
        { id: 'gone', owner: 'hand:b' },
        { id: 'kept', owner: 'hand:broken' },
        { id: 'skill-made', owner: 'skill:b' },
      ],
      'hand:',
      new Set(['hand:broken']),
    );
    expect(diff.create).toEqual([wanted]);
    expect(diff.remove).toEqual(['gone']);
  });
});
