import { describe, expect, it } from '@jest/globals';
import { parseSsrfAllowlist } from './ssrf-allowlist-config.js';

describe('parseSsrfAllowlist', () => {
  it('reads ranges with and without ports', () => {
    expect(parseSsrfAllowlist(undefined)).toEqual([]);
    expect(parseSsrfAllowlist('  ')).toEqual([]);
    expect(parseSsrfAllowlist('10.0.0.0/8, 127.0.0.1/32@8080+9090')).toEqual([
      '10.0.0.0/8',
      { cidr: '127.0.0.1/32', ports: [8080, 9090] },
    ]);
  });

  it('refuses bad entries with the variable named', () => {
    expect(() => parseSsrfAllowlist('10.0.0.0/8,@80')).toThrow(/TALON_SSRF_ALLOWLIST/);
    expect(() => parseSsrfAllowlist('127.0.0.1@0')).toThrow(/ports between 1 and 65535/);
    expect(() => parseSsrfAllowlist('127.0.0.1@http', 'SKILLS_ALLOWLIST')).toThrow(/SKILLS_ALLOWLIST/);
  });
});
