import { describe, expect, it } from '@jest/globals';
import { hashParams, REDACTED, redactParams } from './sensitive-params.js';

describe('redactParams', () => {
  it('redacts top-level and nested paths without touching the input', () => {
    const params = { url: 'https://x', auth: { token: 's3cr3t', user: 'ann' }, password: 'hunter2' };
    const redacted = redactParams(params, ['password', 'auth.token']);
    expect(redacted).toEqual({
      url: 'https://x',
      auth: { token: REDACTED, user: 'ann' },
      password: REDACTED,
    });
    expect(params.auth.token).toBe('s3cr3t');
    expect(params.password).toBe('hunter2');
    expect(JSON.stringify(redacted)).not.toMatch(/s3cr3t|hunter2/);
  });

  it('supports wildcards and array indexes', () => {
    const params = {
      headers: { Authorization: 'Bearer abc', 'X-Key': 'k' },
      items: [{ key: 'a' }, { key: 'b' }],
    };
    expect(redactParams(params, ['headers.*', 'items.*.key'])).toEqual({
      headers: { Authorization: REDACTED, 'X-Key': REDACTED },
      items: [{ key: REDACTED }, { key: REDACTED }],
    });
    expect(redactParams(params, ['items.1.key']).items).toEqual([{ key: 'a' }, { key: REDACTED }]);
  });

  it('returns the same object when nothing matches (no copy on the hot path)', () => {
    const params = { a: { b: 1 } };
    expect(redactParams(params, ['missing', 'a.c', 'a.b.c'])).toBe(params);
    expect(redactParams(params, [])).toBe(params);
  });
});

describe('hashParams', () => {
  it('is stable across key order and a sha256 hex', () => {
    const one = hashParams({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'x' } });
    const two = hashParams({ a: { c: 'x', d: [1, { x: 1, y: 2 }] }, b: 1 });
    expect(one).toBe(two);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(hashParams({ a: 1 })).not.toBe(hashParams({ a: '1' }));
  });

  it('hashes the redacted form when told which params are sensitive', () => {
    const withSecret = hashParams({ token: 'one', q: 'x' }, ['token']);
    expect(hashParams({ token: 'two', q: 'x' }, ['token'])).toBe(withSecret);
    expect(hashParams({ token: 'one', q: 'x' })).not.toBe(withSecret);
  });
});
