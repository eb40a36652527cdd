import { describe, expect, it } from '@jest/globals';
import { hostMatchesPattern, injectCredentials } from './credential-injector.js';
import { pinnedLookup } from './pinned-request.js';

describe('hostMatchesPattern', () => {
  it.each([
    ['api.example.com', 443, 'api.example.com', true],
    ['API.Example.COM.', 443, 'api.example.com', true],
    ['api.example.com', 443, 'API.EXAMPLE.COM', true],
    ['a.b.example.com', 443, '*.example.com', true],
    ['example.com', 443, '*.example.com', false],
    ['evilexample.com', 443, '*.example.com', false],
    ['api.example.com.evil.test', 443, 'api.example.com', false],
    ['api.example.com', 8443, 'api.example.com:8443', true],
    ['api.example.com', 443, 'api.example.com:8443', false],
    ['127.0.0.1', 80, '127.0.0.1', true],
    ['0x7f.1', 80, '127.0.0.1', true],
    ['::1', 80, '[::1]', true],
    ['::1', 8080, '[::1]:8080', true],
    ['::1', 80, '[::1]:8080', false],
    ['other.test', 80, 'api.test', false],
  ])('%s:%i against %s → %s', (host, port, pattern, expected) => {
    expect(hostMatchesPattern(host, port, pattern)).toBe(expected);
  });
});

describe('injectCredentials', () => {
  const grants = [
    {
      secretName: 'bearer',
      value: 'bearer-secret-1',
      hostPatterns: ['api.test'],
      location: { kind: 'bearer' as const },
    },
    {
      secretName: 'query',
      value: 'query-secret-2',
      hostPatterns: ['api.test'],
      location: { kind: 'query' as const, name: 'key' },
    },
  ];

  it('adds matching grants and replaces a header of the same name', () => {
    const result = injectCredentials(
      new URL('http://api.test/x?a=1'),
      { Authorization: 'Basic old' },
      grants,
    );
    expect(result.headers).toEqual({ authorization: 'Bearer bearer-secret-1' });
    expect(result.url.href).toBe('http://api.test/x?a=1&key=query-secret-2');
    expect(result.usedSecrets).toEqual(['bearer-secret-1', 'query-secret-2']);
  });

  it('strips copies of non-matching grants from headers and query', () => {
    const result = injectCredentials(
      new URL('http://other.test/x?key=query-secret-2&b=2'),
      { authorization: 'Bearer bearer-secret-1', accept: '*/*' },
      grants,
    );
    expect(result.headers).toEqual({ accept: '*/*' });
    expect(result.url.href).toBe('http://other.test/x?b=2');
    expect(result.usedSecrets).toEqual([]);
  });
});

describe('pinnedLookup', () => {
  it('answers the pinned address in both callback styles and refuses another host', () => {
    const lookup = pinnedLookup('api.test', '127.0.0.1', 4);
    const answers: unknown[] = [];
    lookup('api.test', {}, (error, address, family) => answers.push([error, address, family]));
    lookup('API.test.', { all: true }, (error, addresses) => answers.push([error, addresses]));
    lookup('evil.test', {}, (error) => answers.push(error?.message));
    expect(answers).toEqual([
      [null, '127.0.0.1', 4],
      [null, [{ address: '127.0.0.1', family: 4 }]],
      expect.stringContaining('unexpected host'),
    ]);
  });
});
