import { describe, expect, it } from '@jest/globals';
import { detectTemplateDialect, renderSkillBody } from './skill-body-template.js';
import { SkillParameterError } from './skill-parameter-error.js';
import { parseSkillText } from './skill-parser.js';
import { SkillTemplateError } from './skill-template-error.js';

/** A workflow skill in the shape of the seeds' `code_review` example (our own text). */
const CODE_REVIEW = `---
name: code-review
version: 2.0.0
description: Reviews a pull request for the areas that matter to the team and reports findings by severity.
tags: [review, code]
tools: [read_file, grep, list_dir?]
parameters:
  - name: pr_url
    type: string
    description: The pull request to review
    required: true
  - name: focus_areas
    type: array
    description: What to look at first
    required: false
    default: [correctness, security, tests]
  - name: max_findings
    type: integer
    required: false
    default: 5
  - name: tone
    type: string
    required: false
    default: direct
    enum: [direct, gentle]
triggers:
  - command: /review
  - webhook: pull_request.opened
---
# Review {{ pr_url }}

Focus on {{ focus_areas | join(", ") }}; report at most {{ max_findings }} findings, {{ tone | upper }} in tone.
{% for area in focus_areas %}
{{ loop.index }}. Check {{ area | title }}{{ " (most important)" if loop.first else "" }}
{% endfor %}
{% if reviewer is defined %}
Reviewer: {{ reviewer }}
{% else %}
Reviewer: {{ reviewer | default("unassigned") }}
{% endif %}
`;

function parsed() {
  const result = parseSkillText(CODE_REVIEW, { path: '/skills/code-review/SKILL.md' });
  if (!result.ok) throw new Error(result.rejection.message);
  return result.skill;
}

describe('a seed-style workflow skill', () => {
  it('parses its tools, typed parameters and detects Jinja', () => {
    const skill = parsed();
    expect(skill.declaredTools).toEqual([
      { name: 'read_file', optional: false },
      { name: 'grep', optional: false },
      { name: 'list_dir', optional: true },
    ]);
    expect(skill.parameters.map((parameter) => parameter.type)).toEqual(['string', 'array', 'integer', 'string']);
    expect(skill.parameters[3]!.enum).toEqual(['direct', 'gentle']);
    expect(detectTemplateDialect(skill.body)).toBe('jinja');
  });

  it('renders exactly, with the array default joined', () => {
    const skill = parsed();
    expect(renderSkillBody(skill.body, skill.parameters, { pr_url: 'https://git.example/pr/7' }, skill.name)).toBe(
      [
        '# Review https://git.example/pr/7',
        '',
        'Focus on correctness, security, tests; report at most 5 findings, DIRECT in tone.',
        '1. Check Correctness (most important)',
        '2. Check Security',
        '3. Check Tests',
        'Reviewer: unassigned',
        '',
      ].join('\n'),
    );
  });

  it('renders values given by a caller and refuses wrong ones', () => {
    const skill = parsed();
    const values = { pr_url: 'u', focus_areas: ['api'], max_findings: 1, tone: 'gentle' };
    expect(renderSkillBody(skill.body, skill.parameters, values, skill.name)).toContain(
      'Focus on api; report at most 1 findings, GENTLE in tone.',
    );
    expect(() => renderSkillBody(skill.body, skill.parameters, { ...values, tone: 'rude' }, skill.name)).toThrow(
      /tone must be one of "direct", "gentle"/,
    );
    expect(() => renderSkillBody(skill.body, skill.parameters, { ...values, max_findings: '1' }, skill.name)).toThrow(
      SkillParameterError,
    );
    expect(() => renderSkillBody(skill.body, skill.parameters, {}, skill.name)).toThrow(/pr_url is required/);
  });

  it('coerces command text when told the values come from a command', () => {
    const skill = parsed();
    const body = renderSkillBody(
      skill.body,
      skill.parameters,
      { pr_url: 'u', focus_areas: 'perf,docs', max_findings: '2' },
      skill.name,
      { source: 'command' },
    );
    expect(body).toContain('Focus on perf, docs; report at most 2 findings');
  });
});

describe('template dialects', () => {
  it('keeps Mustache bodies rendering as before', () => {
    const parameters = [
      { name: 'focus', type: 'string' as const, required: false, default: 'tests' },
      { name: 'items', type: 'array' as const, required: false, default: ['a', 'b'] },
    ];
    expect(renderSkillBody('Focus: {{focus}}. {{#items}}[{{.}}]{{/items}} {{constructor}}', parameters, {})).toBe(
      'Focus: tests. [a][b] ',
    );
    expect(renderSkillBody('Plain {{ focus }} and {{missing}}', parameters, {})).toBe('Plain tests and ');
  });

  it('follows the documented rule', () => {
    expect(detectTemplateDialect('{{ a }} {{ b.c }}')).toBe('mustache');
    expect(detectTemplateDialect('{{#list}}x{{/list}} {% if %}')).toBe('mustache');
    expect(detectTemplateDialect('{{ a | join(", ") }}')).toBe('jinja');
    expect(detectTemplateDialect('{% if a %}x{% endif %}')).toBe('jinja');
    expect(detectTemplateDialect('{{ a }}', 'jinja')).toBe('jinja');
    expect(detectTemplateDialect('{{ a | x }}', 'mustache')).toBe('mustache');
  });

  it('leaves bodies of skills without parameters or template field alone', () => {
    expect(renderSkillBody('Literal {{ not | a template }}', [], {})).toBe('Literal {{ not | a template }}');
  });

  it('makes a template error a typed error naming the skill and line', () => {
    const parameters = [{ name: 'x', type: 'string' as const, required: false, default: 'v' }];
    let error: unknown;
    try {
      renderSkillBody('one\ntwo\n{{ x | join(", ") }} {{ y }}', parameters, {}, 'demo');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(SkillTemplateError);
    expect(error).toMatchObject({ skill: 'demo', line: 3, code: 'SKILL_TEMPLATE_INVALID' });
  });
});
