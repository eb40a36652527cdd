import { describe, expect, it } from '@jest/globals';
import { canonicalJson } from './canonical-json.js';
import { hashParams } from './sensitive-params.js';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { a: value };
  return value;
}

/** `value` rebuilt with every object's keys inserted in sorted order (JSON.stringify then writes them so). */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortedCopy(record[key])]),
  );
}

describe('canonicalJson', () => {
  it('sorts keys at every level and writes what JSON.stringify writes otherwise', () => {
    const value = {
      b: [3, undefined, () => 1, { z: 1, y: [null, 'x'] }],
      a: { d: true, c: undefined, e: Symbol('s'), f: new Date(0), g: 1.5 },
      '\u00e9': 'é',
    };
    expect(canonicalJson(value)).toBe(
      '{"a":{"d":true,"f":"1970-01-01T00:00:00.000Z","g":1.5},"b":[3,null,null,{"y":[null,"x"],"z":1}],"é":"é"}',
    );
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('text')).toBe('"text"');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
  });

  it('hashes a value nested 10,000 levels deep without touching the call stack', () => {
    const text = canonicalJson(nested(10_000));
    expect(text.startsWith('[{"a":[{"a":')).toBe(true);
    expect(hashParams(nested(10_000))).toMatch(/^[0-9a-f]{64}$/);
    expect(hashParams(nested(10_000))).toBe(hashParams(nested(10_000)));
  });

  it('writes the same text on either side of the depth where it stops recursing', () => {
    for (const depth of [30, 31, 32, 33, 34, 64]) {
      const value = { z: nested(depth), a: [nested(depth), { y: 1, x: undefined }] };
      expect(canonicalJson(value)).toBe(JSON.stringify(sortedCopy(value)));
    }
  });

  it('refuses a cycle instead of looping, but shares of one object are fine', () => {
    const shared = { k: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"k":1},"b":[{"k":1}]}');
    const cycle: Record<string, unknown> = {};
    cycle.self = { back: cycle };
    expect(() => canonicalJson(cycle)).toThrow(TypeError);
  });
});
