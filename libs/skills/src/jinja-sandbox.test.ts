import { describe, expect, it } from '@jest/globals';
import { JinjaTemplate } from './jinja-sandbox.js';
import { SkillTemplateError } from './skill-template-error.js';
import { SkillTemplateLimitError } from './skill-template-limit-error.js';

const render = (source: string, variables: Record<string, unknown> = {}, limits = {}) =>
  JinjaTemplate.compile(source, 'demo').render(variables, limits);

function failure(work: () => unknown): SkillTemplateError | SkillTemplateLimitError {
  try {
    work();
  } catch (error) {
    if (error instanceof SkillTemplateError || error instanceof SkillTemplateLimitError) return error;
    throw error;
  }
  throw new Error('expected a template error');
}

describe('Jinja sandbox: filters', () => {
  const values = { items: ['b', 'a', 'c'], name: '  Ada Lovelace  ', empty: '', data: { k: 1, list: [1, 2] } };
  it.each([
    ['{{ items | join(", ") }}', 'b, a, c'],
    ['{{ items | join }}', 'bac'],
    ['{{ missing | default("none") }}', 'none'],
    ['{{ empty | default("blank", true) }}', 'blank'],
    ['{{ name | default("x") }}', '  Ada Lovelace  '],
    ['{{ name | trim | upper }}', 'ADA LOVELACE'],
    ['{{ name | trim | lower }}', 'ada lovelace'],
    ['{{ items | length }} {{ name | trim | length }}', '3 12'],
    ['{{ items | first }}-{{ items | last }}', 'b-c'],
    ['{{ name | trim | replace("Ada", "Augusta Ada") }}', 'Augusta Ada Lovelace'],
    ['{{ "a-a-a" | replace("a", "b", 2) }}', 'b-b-a'],
    ['{{ data | tojson }}', '{"k": 1, "list": [1, 2]}'],
    ['{{ items | sort | join(",") }}', 'a,b,c'],
    ['{{ "x" ~ items | length }}', 'x3'],
  ])('%s', (source, expected) => {
    expect(render(source, values)).toBe(expected);
  });

  it('runs if / elif / else and for with loop variables and else', () => {
    const source = [
      '{% for item in items %}',
      '{{ loop.index }}:{{ item }}{% if not loop.last %},{% endif %}',
      '{% else %}',
      'nothing',
      '{% endfor %}',
      '{% if count > 2 %}many{% elif count == 2 %}two{% else %}few{% endif %}',
    ].join('\n');
    expect(render(source, { items: ['x', 'y'], count: 2 })).toBe('1:x,2:ytwo');
    expect(render(source, { items: [], count: 5 })).toBe('nothing\nmany');
  });
});

describe('Jinja sandbox: strict variables', () => {
  it('names an undefined variable and its line', () => {
    const error = failure(() => render('line one\nline two {{ missing_value }}'));
    expect(error).toBeInstanceOf(SkillTemplateError);
    expect(error).toMatchObject({ code: 'SKILL_TEMPLATE_INVALID', skill: 'demo', line: 2 });
    expect(error.message).toContain('"missing_value" is undefined');
  });

  it('names an undefined member', () => {
    expect(failure(() => render('{{ pr.title }}', { pr: { url: 'u' } })).message).toContain('"pr.title"');
  });

  it('allows `is defined` and `default` on undefined names only', () => {
    expect(render('{% if x is defined %}yes{% else %}no{% endif %}')).toBe('no');
    expect(render('{{ x | default(y | default("z")) }}')).toBe('z');
    expect(failure(() => render('{{ x | default(y) }}')).message).toContain('"y" is undefined');
  });

  it('reports parse errors with their line', () => {
    expect(failure(() => render('a\nb\n{{ x | frob }}', { x: 1 }))).toMatchObject({ line: 3 });
    expect(failure(() => render('a\n{% for x in y %}\nno end'))).toMatchObject({ line: 2 });
    expect(failure(() => render('ok\n{{ "unterminated }}'))).toMatchObject({ line: 2 });
    expect(failure(() => render('{% if %}{% endif %}'))).toBeInstanceOf(SkillTemplateError);
  });
});

describe('Jinja sandbox: escapes', () => {
  const variables = { text: 'hello', list: [1], obj: { a: 1 } };
  it.each([
    '{{ text.constructor }}',
    '{{ text.__proto__ }}',
    '{{ obj.constructor }}',
    '{{ obj.__proto__.polluted }}',
    '{{ list.constructor }}',
    '{{ obj["constructor"] }}',
    '{{ process }}',
    '{{ globalThis }}',
    '{{ require }}',
    '{{ this }}',
  ])('%s reaches nothing', (source) => {
    expect(failure(() => render(source, variables))).toMatchObject({ code: 'SKILL_TEMPLATE_INVALID' });
  });

  it.each([
    ['{{ text.constructor.constructor("return process")() }}', 'only named functions'],
    ['{{ text.toString() }}', 'method "toString"'],
    ['{{ text.replace("h", "j") }}', 'method "replace"'],
    ['{{ raise_exception("x") }}', 'function "raise_exception"'],
    ['{{ strftime_now("%Y") }}', 'function "strftime_now"'],
    ['{% include "/etc/passwd" %}', 'cannot load other templates or files'],
    ['{% import "x.j2" as x %}', 'cannot load other templates or files'],
    ['{% extends "base" %}', 'cannot load other templates or files'],
    ['{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}', 'macros'],
    ['{{ obj | tojson(indent=100000000) }}', 'tojson indent'],
    ['{{ text | center(100000000) }}', 'filter "center"'],
  ])('%s is refused', (source, problem) => {
    expect(failure(() => render(source, variables)).message).toContain(problem);
  });

  it('does not leak prototype pollution into the host', () => {
    render('{% set x = namespace(__proto__="polluted") %}{{ x.__proto__ }}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('Jinja sandbox: limits', () => {
  it('stops a loop that would run forever-ish', () => {
    const error = failure(() => render('{% for i in range(1000000000) %}x{% endfor %}'));
    expect(error).toBeInstanceOf(SkillTemplateLimitError);
    expect(error).toMatchObject({ code: 'SKILL_TEMPLATE_LIMIT', limit: 'items' });
  });

  it('counts iterations of nested loops', () => {
    const source = '{% for a in range(5000) %}{% for b in range(5000) %}{% endfor %}{% endfor %}';
    expect(failure(() => render(source))).toMatchObject({ limit: 'loop_iterations', max: 10_000 });
  });

  it('refuses 100 MB of output, built by doubling, joining or replacing', () => {
    const doubling = '{% set s = "x" %}{% for i in range(27) %}{% set s = s ~ s %}{% endfor %}{{ s }}';
    expect(failure(() => render(doubling))).toMatchObject({ limit: 'output' });
    const hundred = '{% for i in range(100) %}{{ big }}{% endfor %}';
    expect(failure(() => render(hundred, { big: 'y'.repeat(1_000_000) }))).toMatchObject({
      limit: 'output',
    });
    const joined = '{{ range(10000) | join(sep) }}';
    expect(failure(() => render(joined, { sep: 'z'.repeat(10_000) }))).toMatchObject({ limit: 'output' });
    const replaced = '{{ text | replace("", big) }}';
    expect(failure(() => render(replaced, { text: 'a'.repeat(1000), big: 'b'.repeat(1000) }))).toMatchObject(
      { limit: 'output' },
    );
  });

  it('bounds the total work even when each piece is small', () => {
    const source = '{% for i in range(9000) %}{% set s = piece ~ piece %}{% endfor %}';
    expect(failure(() => render(source, { piece: 'p'.repeat(500) }))).toMatchObject({ limit: 'work' });
  });

  it('honours smaller limits passed per render', () => {
    expect(failure(() => render('{{ text }}', { text: 'abcdef' }, { maxOutputChars: 3 }))).toMatchObject({
      limit: 'output',
      max: 3,
    });
  });
});
