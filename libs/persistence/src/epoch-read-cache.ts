import type { ReadEpoch } from './read-epoch.js';

/** Most readings kept at once by default; past it the cache starts over (a reading is one statement away). */
const MAX_READINGS = 10_000;

/**
 * Readings of an embedded database shared while the write epoch of the tables they come from stands still
 * (see {@link ReadEpoch}). A reading, or the read still running, is kept under the epoch at which its read
 * began, and all are dropped once the epoch moves, so a caller never gets a reading older than its own
 * arrival. A failed read is not kept. Readings are shared between callers: they are not to be changed.
 */
export class EpochReadCache {
  private readings = new Map<string, Promise<unknown>>();
  private epochOfReadings = Number.NaN;

  constructor(
    private readonly epoch: ReadEpoch,
    /** Every table the readings depend on: a write known to touch only others leaves them. */
    private readonly tables: readonly string[],
    private readonly maxReadings = MAX_READINGS,
  ) {}

  /** The reading kept under `key`, or `read()`'s, kept from now on. */
  read<T>(key: string, read: () => Promise<T>): Promise<T> {
    const now = this.epoch.current(this.tables);
    if (now !== this.epochOfReadings || this.readings.size >= this.maxReadings) {
      this.readings = new Map();
      this.epochOfReadings = now;
    }
    const kept = this.readings.get(key) as Promise<T> | undefined;
    if (kept) return kept;
    const readings = this.readings;
    const reading = read();
    readings.set(key, reading);
    reading.catch(() => {
      if (readings.get(key) === reading) readings.delete(key);
    });
    return reading;
  }
}
