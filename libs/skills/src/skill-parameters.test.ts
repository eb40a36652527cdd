import { describe, expect, it } from '@jest/globals';
import type { SkillParameter } from '@talon/contracts';
import { parseCommandArguments } from './command-arguments.js';
import { SkillParameterError } from './skill-parameter-error.js';
import { fillSkillParameters } from './skill-parameters.js';

const parameters: SkillParameter[] = [
  { name: 'squad', type: 'string', required: true, enum: ['payments', 'search'] },
  { name: 'days', type: 'integer', required: false, default: 1 },
  { name: 'ratio', type: 'number', required: false },
  { name: 'verbose', type: 'boolean', required: false, default: false },
  { name: 'areas', type: 'array', required: false, default: ['all'] },
  { name: 'options', type: 'object', required: false },
];
const skill = { name: 'standup', parameters };

describe('fillSkillParameters', () => {
  it('types command text against the declarations', () => {
    const parsed = parseCommandArguments(
      '/standup squad=payments days=3 ratio=0.5 verbose=true areas=api,db options={"x":1}',
    )!;
    expect(fillSkillParameters(skill, { source: 'command', values: parsed.values })).toEqual({
      values: { squad: 'payments', days: 3, ratio: 0.5, verbose: true, areas: ['api', 'db'], options: { x: 1 } },
      missing: [],
      ignored: [],
    });
  });

  it('applies defaults without sharing them between calls', () => {
    const first = fillSkillParameters(skill, { source: 'api', values: { squad: 'search' } });
    expect(first.values).toEqual({ squad: 'search', days: 1, verbose: false, areas: ['all'] });
    (first.values['areas'] as string[]).push('mutated');
    expect(fillSkillParameters(skill, { source: 'api', values: { squad: 'search' } }).values['areas']).toEqual([
      'all',
    ]);
  });

  it('takes a trigger payload, ignoring what the skill does not declare', () => {
    const payload = { squad: 'payments', days: 7, action: 'opened', repository: { name: 'x' } };
    expect(fillSkillParameters(skill, { source: 'trigger', values: payload })).toMatchObject({
      values: { squad: 'payments', days: 7 },
      ignored: ['action', 'repository'],
    });
  });

  it('takes execute_skill arguments strictly (no coercion, no unknown keys)', () => {
    expect(fillSkillParameters(skill, { source: 'execute_skill', values: { squad: 'search', days: 2 } }).values)
      .toMatchObject({ squad: 'search', days: 2 });
    expect(() => fillSkillParameters(skill, { source: 'execute_skill', values: { squad: 'search', days: '2' } }))
      .toThrow(/days must be of type integer/);
    expect(() => fillSkillParameters(skill, { source: 'api', values: { squad: 'search', typo: 1 } })).toThrow(
      /typo is not declared/,
    );
  });

  it("coerces a hand's settings like command text and ignores settings no parameter declares", () => {
    const filled = fillSkillParameters(skill, {
      source: 'hand',
      values: { squad: 'search', days: '5', areas: 'api, docs', verbose: true, style: 'bullets' },
    });
    expect(filled.values).toMatchObject({ squad: 'search', days: 5, areas: ['api', 'docs'], verbose: true });
    expect(filled.ignored).toEqual(['style']);
    expect(() => fillSkillParameters(skill, { source: 'hand', values: { squad: 'billing' } })).toThrow(
      /squad must be one of/,
    );
  });

  it('returns missing required parameters instead of failing', () => {
    expect(fillSkillParameters(skill, { source: 'command', values: {} }).missing.map((p) => p.name)).toEqual([
      'squad',
    ]);
  });

  it.each([
    [{ squad: 'billing' }, /squad must be one of "payments", "search"/],
    [{ squad: 'search', days: 1.5 }, /days must be of type integer/],
    [{ squad: 'search', verbose: 'yes' }, /verbose must be of type boolean/],
    [{ squad: 'search', areas: 'api' }, /areas must be of type array/],
    [{ squad: 'search', options: [1] }, /options must be of type object/],
    [{ squad: 'search', ratio: '0.5' }, /ratio must be of type number/],
  ])('refuses %j', (values, message) => {
    const error = (() => {
      try {
        fillSkillParameters(skill, { source: 'api', values });
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(SkillParameterError);
    expect((error as Error).message).toMatch(message);
    expect(error).toMatchObject({ code: 'SCHEMA_VIOLATION' });
  });

  it('refuses a command value that cannot be coerced', () => {
    expect(() => fillSkillParameters(skill, { source: 'command', values: { squad: 'search', days: 'three' } }))
      .toThrow(/days must be of type integer/);
    expect(() => fillSkillParameters(skill, { source: 'command', values: { squad: 'search', options: '{bad' } }))
      .toThrow(/options is not valid JSON/);
  });
});
