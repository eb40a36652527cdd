import { describe, expect, it } from '@jest/globals';
import { hostPatternCovers, hostPatternsCover } from './credential-host-coverage.js';

describe('hostPatternCovers', () => {
  it.each([
    ['api.example.com', 'api.example.com', true],
    ['API.example.com', 'api.example.com', true],
    ['api.example.com', 'evil.com', false],
    ['api.example.com', 'api.example.com.evil.com', false],
    ['*.example.com', 'api.example.com', true],
    ['*.example.com', 'example.com', false],
    ['*.example.com', '*.example.com', true],
    ['*.example.com', '*.eu.example.com', true],
    ['*.eu.example.com', '*.example.com', false],
    ['api.example.com', '*.example.com', false],
    ['127.0.0.1', '127.0.0.1:8080', true],
    ['127.0.0.1:8080', '127.0.0.1:8080', true],
    ['127.0.0.1:8080', '127.0.0.1:9090', false],
    ['127.0.0.1:8080', '127.0.0.1', false],
    ['localhost', '127.0.0.1', false],
  ])('stored %s covers declared %s: %s', (stored, declared, expected) => {
    expect(hostPatternCovers(stored, declared)).toBe(expected);
  });

  it('needs every declared pattern covered, and covers nothing with no stored patterns', () => {
    expect(
      hostPatternsCover(['api.example.com', '*.cdn.example.com'], ['api.example.com', 'x.cdn.example.com']),
    ).toBe(true);
    expect(hostPatternsCover(['api.example.com'], ['api.example.com', 'other.example.com'])).toBe(false);
    expect(hostPatternsCover([], ['api.example.com'])).toBe(false);
  });
});
