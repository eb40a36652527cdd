import type { SkillTriggerTable } from '@talon/contracts';
import { derivedRoutineId, diffOwnedRoutines, type OwnedRoutine } from './owned-routines.js';

/** The owner of routines made from a skill's triggers. */
export function skillOwner(skill: string): string {
  return `skill:${skill}`;
}

/** A routine a skill's trigger asks for. */
export type SkillRoutine = OwnedRoutine;

/** The deterministic id of a skill trigger's routine (the namespace keeps ids made before hands stable). */
export function skillRoutineId(identity: string): string {
  return derivedRoutineId('talon.skill-routine', identity);
}

/**
 * The routines the skills' `schedule` and `webhook` triggers ask for: a cron routine (in the
 * trigger's timezone) or a webhook routine, each running the skill. `command` triggers stay with the
 * chat path, which routes `/command` to its skill.
 */
export function skillRoutines(table: SkillTriggerTable): SkillRoutine[] {
  const routines: SkillRoutine[] = [];
  for (const schedule of table.schedules) {
    const identity = `${schedule.skill}\nschedule\n${schedule.cron}\n${schedule.timezone ?? ''}`;
    routines.push({
      id: skillRoutineId(identity),
      owner: skillOwner(schedule.skill),
      request: {
        name: `${schedule.skill}: schedule ${schedule.cron}${schedule.timezone ? ` (${schedule.timezone})` : ''}`,
        trigger: {
          kind: 'cron',
          expression: schedule.cron,
          ...(schedule.timezone ? { timezone: schedule.timezone } : {}),
        },
        action: { kind: 'skill', skill: schedule.skill },
      },
    });
  }
  for (const webhook of table.webhooks) {
    routines.push({
      id: skillRoutineId(`${webhook.skill}\nwebhook\n${webhook.event}`),
      owner: skillOwner(webhook.skill),
      request: {
        name: `${webhook.skill}: webhook ${webhook.event}`,
        trigger: { kind: 'webhook' },
        // The call's body fills the skill's parameters; the event is named in the prompt, not as one.
        action: {
          kind: 'skill',
          skill: webhook.skill,
          prompt: `Run the skill "${webhook.skill}" for the webhook event "${webhook.event}".`,
        },
      },
    });
  }
  return routines;
}

/** What to create and what to delete so that skill-owned routines match the trigger table. */
export function diffSkillRoutines(
  wanted: readonly SkillRoutine[],
  existing: ReadonlyArray<{ id: string; owner: string }>,
): { create: SkillRoutine[]; remove: string[] } {
  return diffOwnedRoutines(wanted, existing, skillOwner(''));
}
