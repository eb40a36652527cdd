import { basename } from 'node:path';
import { handOwner, handRoutines } from '@talon/autonomy';
import { HAND_FILE_SUFFIX } from '@talon/hands';
import type { OwnedRoutineSource } from '../autonomy/owned-routine-sync.js';
import type { HandCatalog } from './hand-catalog.js';

/**
 * The routines of the hands' triggers, from a fresh read of the hands folder. A hand whose file is there
 * but refused (a typo, a tool no worker offers yet) or whose requirements are unmet keeps the routines it
 * had, so a passing problem neither loses their history nor makes new ones; a file that is gone, or
 * triggers that changed, remove them.
 */
export function handRoutineSource(catalog: HandCatalog): OwnedRoutineSource {
  return {
    kind: 'hand',
    ownerPrefix: handOwner(''),
    async read() {
      const { hands, rejected } = await catalog.snapshot();
      const runnable = hands.filter((hand) => !hand.system && hand.gating.eligible);
      const keepOwners = [
        // The file name is the id, even when the file is too broken to say so itself.
        ...rejected.map((rejection) => handOwner(rejection.id ?? basename(rejection.path, HAND_FILE_SUFFIX))),
        ...hands.filter((hand) => !hand.gating.eligible).map((hand) => handOwner(hand.id)),
      ];
      return { wanted: handRoutines(runnable, new Date()), keepOwners };
    },
  };
}
