import { describe, expect, it } from '@jest/globals';
import { MAX_SCHEMA_BYTES, McpJsonSchemaCompiler } from './mcp-json-schema-compiler.js';

const compiler = new McpJsonSchemaCompiler();

describe('McpJsonSchemaCompiler', () => {
  it('compiles draft-07 and 2020-12 schemas by their $schema', () => {
    const draft7 = compiler.compile({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { a: { type: 'string', format: 'email' } },
    });
    expect(draft7.ok && draft7.validate({ a: 'x@example.org' })).toBe(true);
    expect(draft7.ok && draft7.validate({ a: 'not an email' })).toBe(false);
    const modern = compiler.compile({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { t: { type: 'array', prefixItems: [{ type: 'number' }] } },
    });
    expect(modern.ok && modern.validate({ t: [1] })).toBe(true);
    expect(modern.ok && modern.validate({ t: ['x'] })).toBe(false);
  });

  it.each([
    ['an unknown type', { type: 'object', properties: { a: { type: 'no-such-type' } } }],
    ['a non-numeric minimum', { type: 'object', properties: { a: { type: 'number', minimum: 'ten' } } }],
    [
      'an unresolvable $ref',
      { type: 'object', properties: { a: { $ref: 'https://evil.example/schema.json' } } },
    ],
    ['an array', [1, 2]],
    ['null', null],
  ])('gives a reason instead of throwing for %s', (_label, schema) => {
    const result = compiler.compile(schema);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason.length).toBeGreaterThan(5);
  });

  it('refuses oversized schemas and schemas with cycles', () => {
    const huge = { type: 'object', description: 'x'.repeat(MAX_SCHEMA_BYTES) };
    expect(compiler.compile(huge)).toMatchObject({ ok: false, reason: expect.stringContaining('limit') });
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(compiler.compile(cyclic)).toMatchObject({ ok: false });
  });

  it('as the SDK output validator, rejects values for an unusable schema instead of throwing', () => {
    const validate = compiler.getValidator({ type: 'object', properties: { a: { type: 'bogus' } } } as never);
    expect(validate({ a: 1 })).toMatchObject({
      valid: false,
      errorMessage: expect.stringContaining('unusable'),
    });
    const good = compiler.getValidator<{ a: number }>({ type: 'object', required: ['a'] } as never);
    expect(good({ a: 1 }).valid).toBe(true);
    expect(good({}).valid).toBe(false);
  });

  it('compiles two servers whose schemas share an $id without clashing', () => {
    expect(compiler.compile({ $id: 'https://x/s', type: 'object' }).ok).toBe(true);
    expect(compiler.compile({ $id: 'https://x/s', type: 'object', required: ['b'] }).ok).toBe(true);
  });
});
