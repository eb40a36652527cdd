import type { WriteEpoch } from '@talon/persistence';
import type { GateReading, GateReads } from './gate-reads.js';

/** Most readings kept at once; past it the cache starts over (a reading is one statement away). */
const MAX_READINGS = 10_000;

/**
 * Gate reads shared while the embedded database's write epoch stands still (see `WriteEpoch`): a gated
 * call's approval-and-grants read was about half of the orchestrator's CPU per call at concurrency 64 on
 * PGlite (measured), and nothing it reads changes without a statement that moves the epoch. A reading
 * (or the read still running) is kept under the epoch at which its read began, and all are dropped once
 * the epoch moves, so a caller never gets a reading older than its own arrival. Readings are shared
 * between callers: they are not to be changed.
 */
export class CachedGateReads implements GateReads {
  private readings = new Map<string, Promise<GateReading>>();
  private epochOfReadings = -1;

  constructor(
    private readonly inner: GateReads,
    private readonly epoch: Pick<WriteEpoch, 'current'>,
  ) {}

  read(sessionId: string, callKey: string): Promise<GateReading> {
    const now = this.epoch.current();
    if (now !== this.epochOfReadings || this.readings.size >= MAX_READINGS) {
      this.readings = new Map();
      this.epochOfReadings = now;
    }
    const key = `${sessionId.length}:${sessionId}${callKey}`; // the length keeps any two pairs apart
    const kept = this.readings.get(key);
    if (kept) return kept;
    const readings = this.readings;
    const reading = this.inner.read(sessionId, callKey);
    readings.set(key, reading);
    // A failed read is not kept: the next caller reads again.
    reading.catch(() => {
      if (readings.get(key) === reading) readings.delete(key);
    });
    return reading;
  }
}
