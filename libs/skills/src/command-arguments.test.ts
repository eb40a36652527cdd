import { describe, expect, it } from '@jest/globals';
import { parseCommandArguments } from './command-arguments.js';
import { SkillParameterError } from './skill-parameter-error.js';

describe('parseCommandArguments', () => {
  it('takes key=value pairs out of a command message', () => {
    expect(parseCommandArguments('/standup squad=payments days=3')).toEqual({
      command: 'standup',
      values: { squad: 'payments', days: '3' },
      text: '',
    });
  });

  it('keeps free text, quoted values and JSON values', () => {
    expect(
      parseCommandArguments(
        `/Review please look pr_url="https://x/pr/1" title='a "b" c' areas=["security", "tests"] opts={"a": 1} now`,
      ),
    ).toEqual({
      command: 'review',
      values: {
        pr_url: 'https://x/pr/1',
        title: 'a "b" c',
        areas: '["security", "tests"]',
        opts: '{"a": 1}',
      },
      text: 'please look now',
    });
    expect(parseCommandArguments('/x note="say \\"hi\\""')?.values).toEqual({ note: 'say "hi"' });
    expect(parseCommandArguments('/x a= b=2')?.values).toEqual({ a: '', b: '2' });
  });

  it('is not a command without a leading slash word', () => {
    expect(parseCommandArguments('hello a=b')).toBeUndefined();
    expect(parseCommandArguments('/ a=b')).toBeUndefined();
  });

  it('treats words with = that are not identifiers as text', () => {
    expect(parseCommandArguments('/calc 1+1=2 x-y=3')).toEqual({ command: 'calc', values: {}, text: '1+1=2 x-y=3' });
  });

  it('refuses an open quote, a repeated key and too many pairs', () => {
    expect(() => parseCommandArguments('/x a="open')).toThrow(SkillParameterError);
    expect(() => parseCommandArguments('/x a=1 a=2')).toThrow(/given twice/);
    const many = Array.from({ length: 40 }, (_, index) => `k${index}=v`).join(' ');
    expect(() => parseCommandArguments(`/x ${many}`)).toThrow(/more than 32/);
  });
});
