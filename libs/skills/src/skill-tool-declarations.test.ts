import { describe, expect, it } from '@jest/globals';
import { readDeclaredTools, readTemplateField } from './skill-tool-declarations.js';

describe('readDeclaredTools', () => {
  it('reads names, `?` and {name, optional}, keeping the strictest marking of a duplicate', () => {
    const warnings: string[] = [];
    expect(
      readDeclaredTools(
        ['read_file', 'git_diff?', { name: 'grep', optional: true }, 'grep', 42, 'bad name!'],
        warnings,
      ),
    ).toEqual([
      { name: 'read_file', optional: false },
      { name: 'git_diff', optional: true },
      { name: 'grep', optional: false },
    ]);
    expect(warnings).toHaveLength(2);
    expect(readDeclaredTools('read_file, shell?', [])).toEqual([
      { name: 'read_file', optional: false },
      { name: 'shell', optional: true },
    ]);
  });
});

describe('readTemplateField', () => {
  it('accepts jinja and mustache and warns about anything else', () => {
    const warnings: string[] = [];
    expect(readTemplateField('Jinja', warnings)).toBe('jinja');
    expect(readTemplateField('mustache', warnings)).toBe('mustache');
    expect(readTemplateField('tera', warnings)).toBeUndefined();
    expect(warnings).toEqual(['template "tera" is neither jinja nor mustache; the body\'s syntax decides']);
  });
});
