import { describe, expect, it } from '@jest/globals';
import { guardPattern, testGuarded, DEFAULT_MATCH_INPUT_CAP } from './regex-guard.js';

describe('guardPattern', () => {
  it.each([
    ['(a+)+', 'nested quantifier'],
    ['^(a+)+$', 'nested quantifier'],
    ['(\\w*\\s?)*x', 'nested quantifier'],
    ['(x+y+)+z', 'nested quantifier'],
    ['((ab)*c)+', 'nested quantifier'],
    ['(a|aa)*', 'overlapping'],
    ['(a|a)+b', 'overlapping'],
    ['(\\d|\\w)+', 'overlapping'],
    ['\\d+\\d+$', 'adjacent'],
    ['.*.*=.*', 'adjacent'],
    ['(\\w+)\\s\\1', 'backreference'],
    ['(?<w>a)\\k<w>', 'backreference'],
    ['a'.repeat(201), 'characters'],
  ])('refuses %s as unsafe', (source, why) => {
    const result = guardPattern(source);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem.reason).toBe('unsafe_regex');
      expect(result.problem.message).toContain(why);
    }
  });

  it('refuses patterns that do not compile as invalid', () => {
    const result = guardPattern('[a-');
    expect(!result.ok && result.problem.reason).toBe('invalid_regex');
  });

  it('accepts ordinary patterns and extracts a required literal for prefiltering', () => {
    const cases: Array<[string, string | undefined]> = [
      ['deploy\\s+to\\s+prod', 'deploy'],
      ['error code \\d{3}', 'error code '],
      ['(?i)Stack Trace', 'stack trace'],
      ['(foo|bar)+baz', 'baz'],
      ['colou?r chart', 'r chart'],
      ['^v\\d+\\.\\d+', undefined],
      ['部署到生产', '部署到生产'],
      ['a|b', undefined],
    ];
    for (const [source, literal] of cases) {
      const result = guardPattern(source);
      expect(result.ok).toBe(true);
      if (result.ok) expect([source, result.pattern.requiredLiteral]).toEqual([source, literal]);
    }
  });

  it('runs accepted patterns on hostile input in bounded time by capping the input', () => {
    const shapes = ['\\w+\\s+\\w+$', '(foo|bar)+x$', 'a.*b.*c$', '\\s*\\w+=\\d+;$', '(ab){1,10}c$'];
    const hostile = 'a'.repeat(100_000) + ' ' + 'foo'.repeat(30_000);
    for (const shape of shapes) {
      const result = guardPattern(shape);
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      const started = performance.now();
      testGuarded(result.pattern, hostile, DEFAULT_MATCH_INPUT_CAP);
      expect(performance.now() - started).toBeLessThan(250);
    }
  });
});
