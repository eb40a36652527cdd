import { describe, expect, it } from '@jest/globals';
import { timeOrderedUuid } from './time-ordered-uuid.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID with the RFC 9562 variant whose first 48 bits are the time in ms', () => {
    const at = Date.UTC(2026, 11, 6, 3, 30, 0, 123);
    const id = timeOrderedUuid(at);
    expect(id).toMatch(V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  });

  it('sorts in time order across milliseconds, and is unique within one', () => {
    const ids = [0, 1, 255, 256, 65_536, 2 ** 40, 2 ** 47].map((offset) => timeOrderedUuid(1_000 + offset));
    expect([...ids].sort()).toEqual(ids);
    const sameMs = new Set(Array.from({ length: 10_000 }, () => timeOrderedUuid(5)));
    expect(sameMs.size).toBe(10_000);
  });

  it('writes the time of each id, also when a millisecond comes again after another', () => {
    const times = [7, 7, 8, 7, 2 ** 40, 7];
    for (const at of times) {
      const id = timeOrderedUuid(at);
      expect(id).toMatch(V7);
      expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
    }
  });

  it('takes the current time by default', () => {
    const before = Date.now();
    const id = timeOrderedUuid();
    const after = Date.now();
    const time = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(after);
  });
});
