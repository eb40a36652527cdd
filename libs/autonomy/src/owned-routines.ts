import { createHash } from 'node:crypto';
import type { RoutinesCreateRequest } from '@talon/contracts';

/**
 * A routine a definition asks for (a skill's or a hand's trigger), owned by `<kind>:<name>`, with the
 * deterministic id every orchestrator derives alike.
 */
export interface OwnedRoutine {
  readonly id: string;
  readonly owner: string;
  readonly request: RoutinesCreateRequest;
}

/**
 * A stable UUID (version 8, RFC 9562 "custom") from a trigger's identity within a namespace, so
 * orchestrators that sync the same definitions at once create one routine: the second insert conflicts
 * on the id.
 */
export function derivedRoutineId(namespace: string, identity: string): string {
  const hex = createHash('sha256').update(`${namespace}\n${identity}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * What to create and what to delete so that the routines owned under `ownerPrefix` match `wanted`.
 * Routines of the owners in `keep` stay as they are (their definition cannot be read right now).
 */
export function diffOwnedRoutines(
  wanted: readonly OwnedRoutine[],
  existing: ReadonlyArray<{ id: string; owner: string }>,
  ownerPrefix: string,
  keep: ReadonlySet<string> = new Set(),
): { create: OwnedRoutine[]; remove: string[] } {
  const have = new Set(existing.map((routine) => routine.id));
  const want = new Set(wanted.map((routine) => routine.id));
  return {
    create: wanted.filter((routine) => !have.has(routine.id)),
    remove: existing
      .filter(
        (routine) =>
          routine.owner.startsWith(ownerPrefix) && !keep.has(routine.owner) && !want.has(routine.id),
      )
      .map((routine) => routine.id),
  };
}
