/**
 * A count a cache keys its readings on (see `EpochReadCache`): it stands still while nothing may have
 * changed the tables a reading comes from, and never comes back to a value it left. A source that cannot
 * vouch for some tables (or for any, for a while) hands out a new value at every call, so nothing read from
 * them is kept.
 */
export interface ReadEpoch {
  /** The count for readings of `tables`; without tables, for readings of any table. */
  current(tables?: readonly string[]): number;
}
