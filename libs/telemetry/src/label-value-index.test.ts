import { describe, expect, it } from '@jest/globals';
import { LabelValueIndex } from './label-value-index.js';

describe('LabelValueIndex', () => {
  it('finds one entry per label set, in the order first seen, whatever the values hold', () => {
    let made = 0;
    const index = new LabelValueIndex(['tool', 'domain'] as const, (labels) => ({ labels, n: ++made }));
    const first = index.get({ tool: 'a\u0000', domain: 'b' });
    const second = index.get({ tool: 'a', domain: '\u0000b' });
    expect(second).not.toBe(first);
    expect(index.get({ domain: 'b', tool: 'a\u0000' })).toBe(first);
    expect(index.entries().map((entry) => entry.labels)).toEqual([
      { tool: 'a\u0000', domain: 'b' },
      { tool: 'a', domain: '\u0000b' },
    ]);
    index.clear();
    expect(index.entries()).toEqual([]);
    expect(index.get({ tool: 'a\u0000', domain: 'b' }).n).toBe(3);
  });

  it('keeps one entry when there are no labels', () => {
    const index = new LabelValueIndex([], () => ({}));
    expect(index.get({})).toBe(index.get({}));
    expect(index.entries()).toHaveLength(1);
  });
});
