import { describe, expect, it } from '@jest/globals';
import { diffSkillRoutines, skillRoutineId, skillRoutines } from './skill-routines.js';

const table = {
  commands: [{ command: '/triage', skill: 'incident-triage' }],
  schedules: [{ cron: '0 9 * * 1-5', timezone: 'Asia/Shanghai', skill: 'incident-triage' }],
  webhooks: [{ event: 'release.published', skill: 'release-notes' }],
  manual: [],
  invalid: [],
};

describe('skill routines', () => {
  it('turns schedule and webhook triggers into routines with stable UUIDs', () => {
    const routines = skillRoutines(table);
    expect(routines.map((routine) => routine.request.trigger.kind)).toEqual(['cron', 'webhook']);
    expect(routines[0]).toMatchObject({
      owner: 'skill:incident-triage',
      request: {
        trigger: { kind: 'cron', expression: '0 9 * * 1-5', timezone: 'Asia/Shanghai' },
        action: { kind: 'skill', skill: 'incident-triage' },
      },
    });
    expect(routines[0]!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(skillRoutines(table)[0]!.id).toBe(routines[0]!.id);
    expect(skillRoutineId('a')).not.toBe(skillRoutineId('b'));
  });

  it('creates what is missing and removes skill routines whose trigger is gone, never others', () => {
    const wanted = skillRoutines(table);
    const diff = diffSkillRoutines(wanted.slice(0, 1), [
      { id: wanted[1]!.id, owner: 'skill:release-notes' },
      { id: 'api-made', owner: 'api:nats' },
    ]);
    expect(diff.create.map((routine) => routine.id)).toEqual([wanted[0]!.id]);
    expect(diff.remove).toEqual([wanted[1]!.id]);
  });
});
