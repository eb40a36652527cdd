import { describe, expect, it } from '@jest/globals';
import { expectationMismatch, expectedError } from './example-expectation.js';
import { extractSource, sourceProblems } from './generated-source.js';

const MODULE =
  "import { log } from 'talon:tool/host@0.1.0';\nexport function execute(r) {}\nexport function schema() {}\nexport function description() {}\n";

describe('generated source', () => {
  it('takes the first fenced block, or the whole answer', () => {
    expect(extractSource('Here:\n```js\nexport const a = 1;\n```\nand ```js\nb\n```')).toBe(
      'export const a = 1;\n',
    );
    expect(extractSource('export const a = 1;')).toBe('export const a = 1;\n');
    expect(extractSource('   ')).toBeUndefined();
  });

  it('refuses imports outside the world, missing exports and oversized sources before any build', () => {
    expect(sourceProblems(MODULE)).toEqual([]);
    expect(sourceProblems(`import x from 'wasi:random/random@0.2.0';\n${MODULE}`)).toEqual([
      expect.stringContaining('"wasi:random/random@0.2.0"'),
    ]);
    expect(sourceProblems(`const m = import('node:fs');\n${MODULE}`)).toEqual([
      expect.stringContaining('node:fs'),
    ]);
    expect(sourceProblems('export function execute() {}')).toHaveLength(2);
    expect(sourceProblems(`${MODULE}//${'x'.repeat(100)}`, 100)).toEqual([
      expect.stringContaining('over the cap'),
    ]);
  });
});

describe('example expectations', () => {
  it('matches objects by their keys, arrays item by item, the rest by equality', () => {
    expect(expectationMismatch({ words: 3, extra: true }, { words: 3 })).toBeUndefined();
    expect(expectationMismatch({ words: 4 }, { words: 3 })).toBe('$.words should be 3, got 4');
    expect(expectationMismatch([1, { a: 2 }], [1, { a: 2 }])).toBeUndefined();
    expect(expectationMismatch([1], [1, 2])).toBe('$ should have 2 items, got 1');
    expect(expectationMismatch('text', { a: 1 })).toContain('should be an object');
  });

  it('reads {"error": "text"} as an expected failure', () => {
    expect(expectedError({ error: 'city' })).toBe('city');
    expect(expectedError({ error: 'city', other: 1 })).toBeUndefined();
  });
});
