import { describe, expect, it } from '@jest/globals';
import { canonicalJson } from './canonical-json.js';
import { hashParams } from './sensitive-params.js';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { a: value };
  return value;
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

  it('refuses a cycle instead of looping, but shares of one object are fine', () => {
    const shared = { k: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"k":1},"b":[{"k":1}]}');
    const cycle: Record<string, unknown> = {};
    cycle.self = { back: cycle };
    expect(() => canonicalJson(cycle)).toThrow(TypeError);
  });
});
