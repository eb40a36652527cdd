import { describe, expect, it } from '@jest/globals';
import { guardedRegExpEngine, isCatastrophicPattern } from './regexp-guard.js';

describe('isCatastrophicPattern', () => {
  it('flags nested quantifiers and backreferences', () => {
    for (const pattern of [
      '(a+)+$',
      '^(\\w*)*x',
      '(x+y?){2,}',
      '((ab)*c)+',
      '(a|b+)*',
      '(a)\\1',
      '(?<n>a)\\k<n>',
      '^((a+))+$',
    ]) {
      expect([pattern, isCatastrophicPattern(pattern)]).toEqual([pattern, true]);
    }
  });

  it('lets ordinary patterns through', () => {
    for (const pattern of [
      '^[a-z]+$',
      '^\\d{4}-\\d{2}-\\d{2}$',
      '(foo|bar)+',
      '^(\\d{3})-\\d+$',
      '[(+)]+',
      '^(ab){3}$',
      '\\(a+\\)+',
      'a+b*c?',
    ]) {
      expect([pattern, isCatastrophicPattern(pattern)]).toEqual([pattern, false]);
    }
  });

  it('refuses at compile time through the ajv engine', () => {
    expect(() => guardedRegExpEngine('(a+)+$', 'u')).toThrow(/backtrack/);
    expect(guardedRegExpEngine('^a+$', 'u').test('aaa')).toBe(true);
  });
});
