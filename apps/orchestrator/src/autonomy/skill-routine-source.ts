import { skillOwner, skillRoutines } from '@talon/autonomy';
import type { SkillServiceClient } from '../skills/skill-service-client.js';
import type { OwnedRoutineSource } from './owned-routine-sync.js';

/** The routines of the skills' `schedule` and `webhook` triggers, from the skill-service's trigger table. */
export function skillRoutineSource(skills: SkillServiceClient): OwnedRoutineSource {
  return {
    kind: 'skill',
    ownerPrefix: skillOwner(''),
    async read() {
      try {
        return { wanted: skillRoutines(await skills.triggers({ timeoutMs: 2_000 })) };
      } catch {
        // A skill-service that does not answer changes nothing.
        return undefined;
      }
    },
  };
}
