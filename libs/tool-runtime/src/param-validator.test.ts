import { describe, expect, it } from '@jest/globals';
import { InvalidToolSchemaError } from './errors/invalid-tool-schema-error.js';
import { ParamsInvalidError } from './errors/params-invalid-error.js';
import { ParamValidator } from './param-validator.js';

const schema = {
  type: 'object',
  properties: {
    count: { type: 'integer', minimum: 1 },
    label: { type: 'string', default: 'none' },
    url: { type: 'string', format: 'uri' },
  },
  required: ['count'],
  additionalProperties: false,
};

function violationsOf(action: () => unknown): { path: string; message: string }[] {
  try {
    action();
  } catch (error) {
    if (error instanceof ParamsInvalidError) return error.details;
    throw error;
  }
  throw new Error('expected a ParamsInvalidError');
}

describe('ParamValidator', () => {
  it('coerces "5" to 5 for an integer and fills defaults, in place', () => {
    const validator = new ParamValidator();
    const params = { count: '5' };
    const result = validator.validate('t', schema, params);
    expect(result).toBe(params);
    expect(result).toEqual({ count: 5, label: 'none' });
  });

  it('lists every violation with a JSON Pointer path', () => {
    const validator = new ParamValidator();
    const violations = violationsOf(() =>
      validator.validate('t', schema, { count: 'five', extra: 1, url: 'not a uri' }),
    );
    expect(violations).toEqual(
      expect.arrayContaining([
        { path: '/count', message: 'must be integer' },
        { path: '/extra', message: 'is not allowed (unknown property)' },
        { path: '/url', message: expect.stringContaining('format') },
      ]),
    );
    expect(violationsOf(() => validator.validate('t', schema, {}))).toEqual([
      { path: '/count', message: "must have required property 'count'" },
    ]);
  });

  it('reports the code SCHEMA_VIOLATION and a message that names the tool', () => {
    const validator = new ParamValidator();
    try {
      validator.validate('my_tool', schema, { count: 0 });
      throw new Error('unreachable');
    } catch (error) {
      expect(error).toBeInstanceOf(ParamsInvalidError);
      expect((error as ParamsInvalidError).code).toBe('SCHEMA_VIOLATION');
      expect((error as ParamsInvalidError).message).toContain('my_tool');
    }
  });

  it('does not coerce values that cannot be numbers, and keeps unknown keys when allowed', () => {
    const validator = new ParamValidator();
    const open = { type: 'object', properties: { n: { type: 'number' } } };
    expect(validator.validate('t', open, { n: '2.5', other: true })).toEqual({ n: 2.5, other: true });
    expect(violationsOf(() => validator.validate('t', open, { n: '2.5x' }))).toHaveLength(1);
  });

  it('compiles each schema once, also when an equal schema arrives as a new object', () => {
    const validator = new ParamValidator();
    const first = validator.compile('t', schema);
    expect(validator.compile('t', schema)).toBe(first);
    expect(validator.compile('t', JSON.parse(JSON.stringify(schema)))).toBe(first);
    expect(validator.cachedSchemas).toBe(1);
  });

  it('keeps the cache bounded', () => {
    const validator = new ParamValidator({ maxCachedSchemas: 3 });
    for (let index = 0; index < 10; index += 1)
      validator.compile('t', { type: 'object', properties: { [`p${index}`]: { type: 'string' } } });
    expect(validator.cachedSchemas).toBe(3);
  });

  it('lets schemas with the same $id coexist', () => {
    const validator = new ParamValidator();
    validator.compile('a', {
      $id: 'https://example.test/params.json',
      type: 'object',
      properties: { a: { type: 'string' } },
    });
    expect(() =>
      validator.compile('b', {
        $id: 'https://example.test/params.json',
        type: 'object',
        properties: { b: { type: 'string' } },
      }),
    ).not.toThrow();
  });

  it('throws a typed error for a schema ajv rejects', () => {
    const validator = new ParamValidator();
    expect(() => validator.compile('t', { type: 'object', properties: { a: { minimum: 'one' } } })).toThrow(
      InvalidToolSchemaError,
    );
  });

  it('refuses a schema whose pattern could backtrack catastrophically', () => {
    const validator = new ParamValidator();
    expect(() =>
      validator.compile('t', { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } }),
    ).toThrow(InvalidToolSchemaError);
    expect(
      validator.validate(
        't',
        { type: 'object', properties: { s: { type: 'string', pattern: '^a+$' } } },
        { s: 'aa' },
      ),
    ).toEqual({ s: 'aa' });
  });

  it('understands 2020-12 schemas (prefixItems)', () => {
    const validator = new ParamValidator();
    const tuple = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
      },
    };
    expect(validator.validate('t', tuple, { pair: ['a', '2'] })).toEqual({ pair: ['a', 2] });
    expect(violationsOf(() => validator.validate('t', tuple, { pair: ['a', 2, 3] }))).toHaveLength(1);
  });
});
