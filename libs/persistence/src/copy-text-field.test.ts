import { describe, expect, it } from '@jest/globals';
import { copyTextField } from './copy-text-field.js';

describe('copyTextField', () => {
  it('writes NULL as \\N and integers as digits', () => {
    expect(copyTextField(null)).toBe('\\N');
    expect(copyTextField(42)).toBe('42');
    expect(copyTextField(-7)).toBe('-7');
  });

  it('escapes what could end a field or a row, or read as NULL or the end of the data', () => {
    expect(copyTextField('a\tb\nc\rd')).toBe('a\\tb\\nc\\rd');
    expect(copyTextField('\\N')).toBe('\\\\N');
    expect(copyTextField('\\.')).toBe('\\\\.');
    expect(copyTextField('plain text, ünïcødé 🦅')).toBe('plain text, ünïcødé 🦅');
  });

  it('refuses values that are neither text nor an integer', () => {
    expect(() => copyTextField(1.5)).toThrow(RangeError);
    expect(() => copyTextField({} as unknown as string)).toThrow(TypeError);
  });
});
