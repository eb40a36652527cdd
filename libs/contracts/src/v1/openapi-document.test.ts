import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API_METHOD_NAMES } from './api-methods.js';
import { buildOpenApiDocument } from './openapi-document.js';

const committed = new URL('../../../../docs/openapi.json', import.meta.url);

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('is what docs/openapi.json holds (regenerate with `node scripts/write-openapi.mjs` after a build)', () => {
    expect(JSON.parse(readFileSync(committed, 'utf8'))).toEqual(document);
  });

  it('documents every method of the contract table with its request, reply and error statuses', () => {
    const paths = document.paths as Record<string, { post?: { responses: Record<string, unknown> } }>;
    for (const name of API_METHOD_NAMES) {
      const responses = paths[`/v1/rpc/${name}`]?.post?.responses;
      expect(Object.keys(responses ?? {})).toEqual(
        expect.arrayContaining(['200', '400', '401', '403', '404', '500', '503']),
      );
    }
  });
});
