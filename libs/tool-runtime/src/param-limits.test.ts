import { describe, expect, it } from '@jest/globals';
import { ParamsTooLargeError } from './errors/params-too-large-error.js';
import { checkParamLimits, parseParamLimits } from './param-limits.js';

function limitHit(params: unknown, limits = parseParamLimits()): ParamsTooLargeError['details'] | undefined {
  try {
    checkParamLimits('t', params, limits);
    return undefined;
  } catch (error) {
    if (error instanceof ParamsTooLargeError) return error.details;
    throw error;
  }
}

describe('checkParamLimits', () => {
  it('passes ordinary params', () => {
    expect(limitHit({ message: 'hello', list: [1, 2, 3], nested: { a: { b: null } } })).toBeUndefined();
  });

  it('refuses params over 256 KiB by default with PAYLOAD_TOO_LARGE', () => {
    expect(limitHit({ blob: 'x'.repeat(300 * 1024) })).toMatchObject({
      limit: 'maxBytes',
      max: 256 * 1024,
      path: '/blob',
    });
    expect(limitHit({ blob: 'x'.repeat(200 * 1024) })).toBeUndefined();
    try {
      checkParamLimits('t', { blob: 'x'.repeat(300 * 1024) }, parseParamLimits());
    } catch (error) {
      expect((error as ParamsTooLargeError).code).toBe('PAYLOAD_TOO_LARGE');
    }
  });

  it('counts UTF-8 bytes, not characters', () => {
    const limits = parseParamLimits({ maxBytes: 1000 });
    expect(limitHit({ text: '漢'.repeat(400) }, limits)?.limit).toBe('maxBytes');
    expect(limitHit({ text: 'a'.repeat(400) }, limits)).toBeUndefined();
  });

  it('refuses a depth bomb and names where', () => {
    let bomb: unknown = 'leaf';
    for (let depth = 0; depth < 10_000; depth += 1) bomb = { a: bomb };
    const hit = limitHit(bomb);
    expect(hit?.limit).toBe('maxDepth');
    expect(hit?.path).toBe('/a'.repeat(32));
    let arrays: unknown = [];
    for (let depth = 0; depth < 40; depth += 1) arrays = [arrays];
    expect(limitHit(arrays)?.limit).toBe('maxDepth');
  });

  it('allows exactly the maximum depth', () => {
    let nested: unknown = {};
    for (let depth = 1; depth < 32; depth += 1) nested = { a: nested };
    expect(limitHit(nested)).toBeUndefined();
    expect(limitHit({ a: nested })?.limit).toBe('maxDepth');
  });

  it('refuses a cycle instead of looping', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(limitHit(cycle)?.limit).toBe('maxDepth');
  });

  it('refuses too many keys and too long arrays', () => {
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, index) => [`k${index}`, 1]));
    expect(limitHit(wide)?.limit).toBe('maxKeys');
    expect(limitHit({ list: new Array(10_001).fill(0) })).toMatchObject({
      limit: 'maxArrayLength',
      path: '/list',
    });
  });

  it('rejects nonsense limits at configuration time', () => {
    expect(() => parseParamLimits({ maxDepth: 0 })).toThrow(RangeError);
    expect(() => parseParamLimits({ maxBytes: 1.5 })).toThrow(RangeError);
  });
});
