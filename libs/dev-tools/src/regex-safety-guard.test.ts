import { describe, expect, it } from '@jest/globals';
import { assertSafeRegex } from './regex-safety-guard.js';
import { UnsafePatternError } from './unsafe-pattern-error.js';

describe('assertSafeRegex', () => {
  it.each([
    'TODO',
    'foo\\d+bar',
    '^import .* from',
    '(foo|bar)?',
    '(ab)+c',
    '[a-z]+@[a-z]+\\.com',
    'a{2,3}',
    '(?:x+)?',
    'fo+(b){0,1}',
  ])('accepts %j', (pattern) => {
    expect(() => assertSafeRegex(pattern, 1000)).not.toThrow();
  });

  it.each([
    ['(a+)+$', 'nested quantifier'],
    ['(a*)*b', 'nested quantifier'],
    ['(x+x+)+y', 'nested quantifier'],
    ['((a+))+', 'nested inside a plain group'],
    ['(a|a)*b', 'quantified alternation'],
    ['(a|ab){2,}', 'quantified alternation with a bound'],
    ['(\\w+\\s?)*$', 'classic email-style blow-up'],
    ['(a)\\1', 'backreference'],
    ['(?<x>a)\\k<x>', 'named backreference'],
    ['', 'empty'],
  ])('refuses %j (%s)', (pattern) => {
    expect(() => assertSafeRegex(pattern, 1000)).toThrow(UnsafePatternError);
  });

  it('refuses patterns above the length cap', () => {
    expect(() => assertSafeRegex('a'.repeat(11), 10)).toThrow(UnsafePatternError);
  });

  it('ignores quantifiers inside character classes and escaped parentheses', () => {
    expect(() => assertSafeRegex('([+*])+', 1000)).not.toThrow();
    expect(() => assertSafeRegex('\\(a+\\)+', 1000)).not.toThrow();
  });
});
