import { describe, expect, it } from '@jest/globals';
import { truncateText } from './output-truncation.js';

describe('truncateText', () => {
  it('leaves short text alone', () => {
    expect(truncateText('hello', 100)).toEqual({ text: 'hello', truncated: false, originalBytes: 5 });
  });

  it('cuts to the byte limit and says so', () => {
    const result = truncateText('x'.repeat(1000), 100);
    expect(result.truncated).toBe(true);
    expect(result.originalBytes).toBe(1000);
    expect(result.text.startsWith('x'.repeat(100))).toBe(true);
    expect(result.text).toContain('[output truncated: 100 of 1000 bytes shown]');
  });

  it('never splits a multi-byte character', () => {
    const result = truncateText('é'.repeat(100), 51); // 2 bytes each: 25 whole characters fit
    expect(result.text.startsWith('é'.repeat(25))).toBe(true);
    expect(result.text).not.toContain('\uFFFD');
    expect(truncateText('😀'.repeat(40), 10).text.startsWith('😀😀\n')).toBe(true);
  });

  it('reports the size before an earlier cut', () => {
    expect(truncateText('abc', 100, 5000)).toEqual({
      text: 'abc\n[output truncated: 3 of 5000 bytes shown]',
      truncated: true,
      originalBytes: 5000,
    });
  });
});
