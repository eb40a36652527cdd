import { describe, expect, it } from '@jest/globals';
import { decodeJsonPayload, parseJsonText } from './json-codec.js';
import { DEFAULT_MAX_PAYLOAD_DEPTH, jsonNestingExceeds } from './json-nesting.js';

const deep = (depth: number) => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;

describe('payload nesting limit', () => {
  it('counts objects and arrays but not brackets inside strings or after escapes', () => {
    expect(jsonNestingExceeds('[[1]]', 2)).toBe(false);
    expect(jsonNestingExceeds('[[[1]]]', 2)).toBe(true);
    expect(jsonNestingExceeds('{"a":"[[[[[[\\"[[[["}', 1)).toBe(false);
    expect(jsonNestingExceeds('{"a\\\\":[[1]]}', 2)).toBe(true);
    expect(jsonNestingExceeds('', 1)).toBe(false);
  });

  it('refuses a body nested 10,000 deep with PAYLOAD_TOO_LARGE before parsing it', () => {
    const bytes = new TextEncoder().encode(deep(5_000));
    expect(() => decodeJsonPayload(bytes, 1 << 20)).toThrow(
      expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE', details: { limit: 'maxDepth', maxDepth: 64 } }),
    );
    expect(() => parseJsonText('['.repeat(10_000))).toThrow(
      expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE' }),
    );
  });

  it('accepts what tool params may hold (32 levels under params) and the limit itself', () => {
    const params = `{"tool":"json","params":${'['.repeat(32)}${']'.repeat(32)}}`;
    expect(decodeJsonPayload(new TextEncoder().encode(params), 1 << 20)).toMatchObject({ tool: 'json' });
    const atLimit = `${'['.repeat(DEFAULT_MAX_PAYLOAD_DEPTH)}${']'.repeat(DEFAULT_MAX_PAYLOAD_DEPTH)}`;
    expect(() => parseJsonText(atLimit)).not.toThrow();
  });
});
