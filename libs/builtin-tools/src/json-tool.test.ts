import { describe, expect, it } from '@jest/globals';
import { ParamsInvalidError, ToolPipeline, ToolRegistry } from '@talon/tool-runtime';
import { InvalidJsonSchemaError } from './errors/invalid-json-schema-error.js';
import { JsonParseError } from './errors/json-parse-error.js';
import { JsonPathError } from './errors/json-path-error.js';
import { createJsonTool, type JsonToolOptions } from './json-tool.js';

function jsonCall(params: Record<string, unknown>, options: JsonToolOptions = {}) {
  const registry = new ToolRegistry();
  registry.register(createJsonTool(options));
  return new ToolPipeline(registry)
    .runLocal({ tool: 'json', params })
    .then((result) => result.output as Record<string, any>);
}

async function failure(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

const store = {
  store: {
    book: [
      { title: 'A', price: 8 },
      { title: 'B', price: 22 },
      { title: 'C', price: 5 },
    ],
    bicycle: { price: 100 },
  },
};

describe('json tool', () => {
  it('is a side-effect-free built-in', () => {
    expect(createJsonTool().definition).toMatchObject({
      name: 'json',
      effects: [],
      approval: 'never',
      domain: 'orchestrator',
      source: 'builtin',
      idempotent: true,
    });
  });

  it('parse: returns the value and its type', async () => {
    expect(await jsonCall({ operation: 'parse', text: '{"a":[1,2,{"b":null}]}' })).toEqual({
      value: { a: [1, 2, { b: null }] },
      type: 'object',
    });
    expect(await jsonCall({ operation: 'parse', text: ' 42 ' })).toEqual({ value: 42, type: 'number' });
    expect(await jsonCall({ operation: 'parse', text: 'null' })).toEqual({ value: null, type: 'null' });
  });

  it('parse: malformed text gives the line and column of the error', async () => {
    const cases: [string, number, number, number][] = [
      ['{"a": 1,}', 8, 1, 9],
      ['{\n  "a": tru\n}', 12, 2, 11],
      ['[1, 2', 5, 1, 6],
      ['', 0, 1, 1],
      ['{"a": "x\ny"}', 8, 1, 9],
      ['{"a": 1} trailing', 9, 1, 10],
      ['{"a": 01}', 7, 1, 8],
    ];
    for (const [text, position, line, column] of cases) {
      const error = await failure(jsonCall({ operation: 'parse', text }));
      expect(error).toBeInstanceOf(JsonParseError);
      expect(error.code).toBe('TOOL_FAILED');
      expect([text, error.details.position, error.details.line, error.details.column]).toEqual([
        text,
        position,
        line,
        column,
      ]);
      expect(error.message).toContain(`line ${line}, column ${column}`);
    }
  });

  it('query: JSONPath over data or text, with paths and pointers', async () => {
    const titles = await jsonCall({ operation: 'query', data: store, path: '$.store.book[*].title' });
    expect(titles.count).toBe(3);
    expect(titles.matches.map((match: { value: string }) => match.value)).toEqual(['A', 'B', 'C']);
    expect(titles.matches[0]).toEqual({
      path: "$['store']['book'][0]['title']",
      pointer: '/store/book/0/title',
      value: 'A',
    });
    const prices = await jsonCall({ operation: 'query', text: JSON.stringify(store), path: '$..price' });
    expect(
      prices.matches.map((match: { value: number }) => match.value).sort((a: number, b: number) => a - b),
    ).toEqual([5, 8, 22, 100]);
    expect((await jsonCall({ operation: 'query', data: store, path: '$.nothing' })).count).toBe(0);
  });

  it('query: filter expressions run in the safe evaluator', async () => {
    const cheap = await jsonCall({ operation: 'query', data: store, path: '$..book[?(@.price < 10)].title' });
    expect(cheap.matches.map((match: { value: string }) => match.value)).toEqual(['A', 'C']);
  });

  it('query: refuses code in filters instead of running it', async () => {
    const before = (Object.prototype as Record<string, unknown>).polluted;
    for (const path of [
      "$..book[?(@.constructor.constructor('return process')().exit(1))]",
      '$..book[?(@.title.match(/(a+)+$/))]',
      '$..book[?(@.title.repeat(100000000))]',
      '$[?(@.__proto__.polluted = 1)]',
      '$..book[?(this.constructor)]',
    ]) {
      expect([path, await failure(jsonCall({ operation: 'query', data: store, path }))]).toEqual([
        path,
        expect.any(JsonPathError),
      ]);
    }
    expect((Object.prototype as Record<string, unknown>).polluted).toBe(before);
  });

  it('query: can switch filters off entirely', async () => {
    const error = await failure(
      jsonCall(
        { operation: 'query', data: store, path: '$..book[?(@.price < 10)]' },
        { filterExpressions: 'off' },
      ),
    );
    expect(error).toBeInstanceOf(JsonPathError);
    expect(
      (
        await jsonCall(
          { operation: 'query', data: store, path: '$.store.bicycle.price' },
          { filterExpressions: 'off' },
        )
      ).matches[0].value,
    ).toBe(100);
  });

  it('query: caps the number of matches', async () => {
    const data = { items: Array.from({ length: 50 }, (_, index) => index) };
    const result = await jsonCall({ operation: 'query', data, path: '$.items[*]', limit: 10 });
    expect(result).toMatchObject({ count: 50, truncated: true });
    expect(result.matches).toHaveLength(10);
  });

  it('validate: lists violations with paths, and does not change the data', async () => {
    const schema = {
      type: 'object',
      properties: { age: { type: 'integer', minimum: 0 }, name: { type: 'string', default: 'x' } },
      required: ['age', 'email'],
    };
    const data = { age: '7' };
    const result = await jsonCall({ operation: 'validate', data, schema });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual(
      expect.arrayContaining([
        { path: '/age', message: 'must be integer' },
        { path: '/email', message: "must have required property 'email'" },
      ]),
    );
    expect(data).toEqual({ age: '7' });
    expect(await jsonCall({ operation: 'validate', text: '{"age": 3, "email": "a@b.c"}', schema })).toEqual({
      valid: true,
      errors: [],
    });
  });

  it('validate: formats and 2020-12 schemas; the same $id twice is fine', async () => {
    const schema = { $id: 'https://example.test/s.json', type: 'string', format: 'email' };
    expect((await jsonCall({ operation: 'validate', data: 'nope', schema })).valid).toBe(false);
    expect((await jsonCall({ operation: 'validate', data: 'a@b.co', schema })).valid).toBe(true);
    const tuple = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string' }],
      items: false,
    };
    expect((await jsonCall({ operation: 'validate', data: ['a', 'b'], schema: tuple })).valid).toBe(false);
  });

  it('validate: a broken or ReDoS-prone schema is a typed error', async () => {
    expect(
      await failure(jsonCall({ operation: 'validate', data: 1, schema: { type: 'integr' } })),
    ).toBeInstanceOf(InvalidJsonSchemaError);
    expect(
      await failure(
        jsonCall({ operation: 'validate', data: 'aaaa', schema: { type: 'string', pattern: '^(a+)+$' } }),
      ),
    ).toBeInstanceOf(InvalidJsonSchemaError);
  });

  it('names the parameter an operation is missing', async () => {
    for (const [params, path] of [
      [{ operation: 'parse' }, '/text'],
      [{ operation: 'query', data: {} }, '/path'],
      [{ operation: 'query', path: '$' }, '/data'],
      [{ operation: 'validate', data: {} }, '/schema'],
    ] as const) {
      const error = await failure(jsonCall(params));
      expect(error).toBeInstanceOf(ParamsInvalidError);
      expect(error.details[0].path).toBe(path);
    }
  });
});
