/** File names discovery reads: `<id>.HAND.toml`. */
export const HAND_FILE_SUFFIX = '.HAND.toml';

/** Ids of hands in files; system hands add a leading `_`. */
export const HAND_ID_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;

/** Why an id cannot name a hand, or undefined when it can. */
export function handIdProblem(id: string): string | undefined {
  if (HAND_ID_PATTERN.test(id)) return undefined;
  return `hand id "${id}" must match ${HAND_ID_PATTERN.source} (lower-case letters, digits, "-" and "_", at most 64)`;
}
