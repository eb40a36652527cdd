import { describe, expect, it } from '@jest/globals';
import { findAllowEntry, hostMatches } from './http-allowlist.js';

describe('hostMatches', () => {
  it.each([
    ['api.example.com', 'https://api.example.com/x', true],
    ['API.example.com', 'https://api.EXAMPLE.com/x', true],
    ['api.example.com', 'https://api.example.com.evil.net/x', false],
    ['api.example.com', 'https://evilapi.example.com/x', false],
    ['*.example.com', 'https://a.b.example.com/x', true],
    ['*.example.com', 'https://example.com/x', false],
    ['*.example.com', 'https://badexample.com/x', false],
    ['127.0.0.1:8080', 'http://127.0.0.1:8080/', true],
    ['127.0.0.1:8080', 'http://127.0.0.1:8081/', false],
    ['127.0.0.1', 'http://127.0.0.1:8081/', true],
  ])('%s against %s → %s', (pattern, url, expected) => {
    expect(hostMatches(pattern, new URL(url))).toBe(expected);
  });
});

describe('findAllowEntry', () => {
  const allowlist = [{ host: 'api.example.com', path_prefix: '/v1', methods: ['GET' as const] }];

  it('grants a matching request', () => {
    expect(findAllowEntry(allowlist, 'get', new URL('https://api.example.com/v1/items'))).toEqual({
      entry: allowlist[0],
    });
    expect(findAllowEntry(allowlist, 'GET', new URL('https://api.example.com/v1'))).toEqual({
      entry: allowlist[0],
    });
  });

  it.each([
    ['a prefix look-alike', 'GET', 'https://api.example.com/v10/items', /outside the allowed prefixes/],
    ['a traversal', 'GET', 'https://api.example.com/v1/../admin', /outside the allowed prefixes/],
    ['another method', 'POST', 'https://api.example.com/v1/items', /method POST/],
    ['another scheme', 'GET', 'ftp://api.example.com/v1/items', /scheme ftp:/],
    ['userinfo', 'GET', 'https://a:b@api.example.com/v1/items', /credentials in the URL/],
    ['an encoded backslash', 'GET', 'https://api.example.com/v1/..%5cadmin', /encoded slashes/],
  ])('refuses %s', (_label, method, url, reason) => {
    const result = findAllowEntry(allowlist, method, new URL(url));
    expect('reason' in result && result.reason).toMatch(reason);
  });
});
