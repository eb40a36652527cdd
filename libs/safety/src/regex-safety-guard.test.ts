import { describe, expect, it } from '@jest/globals';
import { checkRegexSafety, type RegexRefusalReason } from './regex-safety-guard.js';

// The union of the decisions of the three guards this one replaced (grep in dev-tools, JSON Schema
// patterns in tool-runtime, skill patterns in skills), with the reason each is refused for.
const REFUSED: readonly [string, RegexRefusalReason][] = [
  ['(a+)+$', 'nested_quantifier'],
  ['(a+)+', 'nested_quantifier'],
  ['^(a+)+$', 'nested_quantifier'],
  ['(a*)*b', 'nested_quantifier'],
  ['^(\\w*)*x', 'nested_quantifier'],
  ['(\\w*\\s?)*x', 'nested_quantifier'],
  ['(x+x+)+y', 'adjacent_repeats'],
  ['(x+y+)+z', 'nested_quantifier'],
  ['(x+y?){2,}', 'nested_quantifier'],
  ['((a+))+', 'nested_quantifier'],
  ['^((a+))+$', 'nested_quantifier'],
  ['((ab)*c)+', 'nested_quantifier'],
  ['(a|b+)*', 'nested_quantifier'],
  ['(\\w+\\s?)*$', 'nested_quantifier'],
  ['(?:a+){3}', 'nested_quantifier'],
  ['(a|a)*b', 'overlapping_alternation'],
  ['(a|a)+b', 'overlapping_alternation'],
  ['(a|aa)*', 'overlapping_alternation'],
  ['(a|ab){2,}', 'overlapping_alternation'],
  ['(\\d|\\w)+', 'overlapping_alternation'],
  ['(x|\\w)+', 'overlapping_alternation'],
  ['(|a)+', 'overlapping_alternation'],
  ['\\d+\\d+$', 'adjacent_repeats'],
  ['.*.*=.*', 'adjacent_repeats'],
  ['a*a*a*b', 'adjacent_repeats'],
  ['\\S+\\w*$', 'adjacent_repeats'],
  ['(a)\\1', 'backreference'],
  ['(\\w+)\\s\\1', 'backreference'],
  ['(?<x>a)\\k<x>', 'backreference'],
  ['', 'empty'],
  ['[a-', 'invalid'],
  ['(a', 'invalid'],
  ['('.repeat(65) + 'a' + ')'.repeat(65), 'too_deep'],
];

const ACCEPTED: readonly string[] = [
  'TODO',
  'foo\\d+bar',
  '^import .* from',
  '(foo|bar)?',
  '(foo|bar)+',
  '(foo|bar)+baz',
  '(ab)+c',
  '^(ab){3}$',
  '[a-z]+@[a-z]+\\.com',
  '^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$',
  'a{2,3}',
  '(?:x+)?',
  'fo+(b){0,1}',
  '^[a-z]+$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '^(\\d{3})-\\d+$',
  '[(+)]+',
  '([+*])+',
  '\\(a+\\)+',
  'a+b*c?',
  '\\w*a*b',
  '^\\S+\\s*$',
  'deploy\\s+to\\s+prod',
  'colou?r chart',
  '部署到生产',
  '\\p{L}+',
  'a|b',
];

describe('checkRegexSafety', () => {
  it.each(REFUSED)('refuses %j (%s)', (pattern, reason) => {
    expect(checkRegexSafety(pattern)).toMatchObject({ safe: false, reason });
  });

  it.each(ACCEPTED)('accepts %j', (pattern) => {
    expect(checkRegexSafety(pattern)).toEqual({ safe: true });
  });

  it("applies the caller's length cap", () => {
    expect(checkRegexSafety('a'.repeat(201), { maxLength: 200 })).toMatchObject({
      safe: false,
      reason: 'too_long',
      message: expect.stringContaining('201 characters'),
    });
    expect(checkRegexSafety('a'.repeat(200), { maxLength: 200 })).toEqual({ safe: true });
  });

  it('checks that the pattern compiles with the flags it will be used with', () => {
    expect(checkRegexSafety('\\p{L}+', { flags: 'u' })).toEqual({ safe: true });
    expect(checkRegexSafety('\\-', { flags: 'u' })).toMatchObject({ safe: false, reason: 'invalid' });
    expect(checkRegexSafety('\\-', { flags: '' })).toEqual({ safe: true });
  });

  it('ignores quantifiers inside character classes and escaped parentheses', () => {
    expect(checkRegexSafety('[(a+)+]+')).toEqual({ safe: true });
    expect(checkRegexSafety('\\((a+)\\)+')).toEqual({ safe: true });
  });

  it('decides in bounded time on long hostile sources', () => {
    const started = performance.now();
    for (const source of ['('.repeat(5000) + ')'.repeat(5000), '[a]'.repeat(3000), 'a|'.repeat(4000) + 'a'])
      expect(checkRegexSafety(source, { maxLength: 20_000 }).safe).toBeDefined();
    // A hang or a quadratic blow-up takes minutes on these sizes; the bound is loose for loaded machines.
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});

describe('checkRegexSafety against recheck (the test oracle)', () => {
  it('refuses every pattern of the corpus that recheck proves exponential', async () => {
    const { checkSync } = await import('recheck');
    const corpus = [...REFUSED.map(([pattern]) => pattern), ...ACCEPTED].filter((pattern) => pattern !== '');
    const missed: string[] = [];
    for (const pattern of corpus) {
      let diagnostics: ReturnType<typeof checkSync>;
      try {
        diagnostics = checkSync(pattern, '', { timeout: 5_000 });
      } catch {
        continue;
      }
      const exponential =
        diagnostics.status === 'vulnerable' && diagnostics.complexity.type === 'exponential';
      if (exponential && checkRegexSafety(pattern).safe) missed.push(pattern);
    }
    expect(missed).toEqual([]);
  }, 120_000);
});
