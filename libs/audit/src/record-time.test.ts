import { describe, expect, it } from '@jest/globals';
import { recordTime, recordTimeMs } from './record-time.js';

describe('record time', () => {
  it('writes the ISO text of each millisecond, also when the same one comes again after another', () => {
    const first = Date.UTC(2026, 11, 7, 3, 0, 0, 5);
    const second = first + 1;
    expect(recordTime(first)).toBe('2026-12-07T03:00:00.005Z');
    expect(recordTime(first)).toBe('2026-12-07T03:00:00.005Z');
    expect(recordTime(second)).toBe('2026-12-07T03:00:00.006Z');
    expect(recordTime(first)).toBe('2026-12-07T03:00:00.005Z');
  });

  it('stamps the current time by default', () => {
    const before = Date.now();
    const stamped = Date.parse(recordTime());
    expect(stamped).toBeGreaterThanOrEqual(before);
    expect(stamped).toBeLessThanOrEqual(Date.now());
  });

  it('reads back only the form it writes', () => {
    expect(recordTimeMs('2026-12-07T03:00:00.005Z')).toBe(Date.UTC(2026, 11, 7, 3, 0, 0, 5));
    for (const other of [
      '2026-12-07T03:00:00Z',
      '2026-12-07T03:00:00.005+00:00',
      '2026-12-07 03:00:00.005Z',
      '2026-12-07T03:00:00.0051Z',
      'yesterday',
      '',
    ])
      expect({ other, ms: recordTimeMs(other) }).toEqual({ other, ms: Number.NaN });
    // An answer remembered for one text is not given for the next.
    expect(recordTimeMs('2026-12-07T03:00:00.007Z')).toBe(Date.UTC(2026, 11, 7, 3, 0, 0, 7));
    expect(recordTimeMs('2026-12-07T03:00:00.007Z')).toBe(Date.UTC(2026, 11, 7, 3, 0, 0, 7));
    expect(recordTimeMs('2026-12-07T03:00:00.008Z')).toBe(Date.UTC(2026, 11, 7, 3, 0, 0, 8));
  });
});
