import { createHash } from 'node:crypto';
import type { RoutinesCreateRequest, SkillTriggerTable } from '@talon/contracts';

/** The owner of routines made from a skill's triggers. */
export function skillOwner(skill: string): string {
  return `skill:${skill}`;
}

/** A routine a skill's trigger asks for, with the deterministic id every orchestrator derives alike. */
export interface SkillRoutine {
  readonly id: string;
  readonly owner: string;
  readonly request: RoutinesCreateRequest;
}

/**
 * A stable UUID (version 8, RFC 9562 "custom") from the trigger's identity, so orchestrators that sync
 * the same trigger table at once create one routine: the second insert conflicts on the id.
 */
export function skillRoutineId(identity: string): string {
  const hex = createHash('sha256').update(`talon.skill-routine\n${identity}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
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
  const have = new Set(existing.map((routine) => routine.id));
  const want = new Set(wanted.map((routine) => routine.id));
  return {
    create: wanted.filter((routine) => !have.has(routine.id)),
    remove: existing
      .filter((routine) => routine.owner.startsWith('skill:') && !want.has(routine.id))
      .map((r) => r.id),
  };
}
