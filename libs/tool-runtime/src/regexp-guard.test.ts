import { describe, expect, it } from '@jest/globals';
import { guardedRegExpEngine } from './regexp-guard.js';

describe('guardedRegExpEngine', () => {
  it('refuses at compile time through the ajv engine', () => {
    expect(() => guardedRegExpEngine('(a+)+$', 'u')).toThrow(/backtrack/);
    expect(() => guardedRegExpEngine('(a|aa)*$', 'u')).toThrow(/overlapping/);
    expect(guardedRegExpEngine('^a+$', 'u').test('aaa')).toBe(true);
  });

  it('leaves an invalid pattern to the RegExp constructor, as ajv expects', () => {
    expect(() => guardedRegExpEngine('[a-', 'u')).toThrow(SyntaxError);
  });
});
