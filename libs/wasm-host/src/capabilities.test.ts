import { describe, expect, it } from '@jest/globals';
import { DEFAULT_LIMITS, parseCapabilities } from './capabilities.js';

describe('parseCapabilities', () => {
  it('fills defaults for a minimal file', () => {
    expect(parseCapabilities({ effects: [] })).toMatchObject({
      httpAllowlist: [],
      secrets: [],
      workspacePrefixes: [],
      toolAliases: {},
      memoryMb: DEFAULT_LIMITS.memoryMb,
      timeoutMs: DEFAULT_LIMITS.timeoutMs,
      maxConcurrency: DEFAULT_LIMITS.maxConcurrency,
      allowedImports: [],
    });
  });

  it('reads a full file', () => {
    const capabilities = parseCapabilities({
      effects: ['network', 'use_secret'],
      http: {
        allowlist: [{ host: 'api.example.com', path_prefix: '/v1/', methods: ['GET'] }],
        credentials: [
          { secret_name: 'key', location: { kind: 'bearer' }, host_patterns: ['api.example.com'] },
        ],
        max_response_bytes: 10,
      },
      secrets: ['key'],
      rate_limit: { calls: 5, per_ms: 1000 },
      limits: { memory_mb: 64, timeout_ms: 100 },
    });
    expect(capabilities).toMatchObject({
      httpMaxResponseBytes: 10,
      rateLimit: { calls: 5, perMs: 1000 },
      memoryMb: 64,
      timeoutMs: 100,
    });
  });

  it.each([
    ['an unknown field', { effects: [], shell: true }, /must NOT have additional properties/],
    ['an unknown effect', { effects: ['teleport'] }, /effects/],
    ['a missing effects list', {}, /must have required property 'effects'/],
    [
      'a path prefix without a leading slash',
      { effects: ['network'], http: { allowlist: [{ host: 'a.com', path_prefix: 'v1', methods: ['GET'] }] } },
      /path_prefix/,
    ],
    [
      'an unknown method',
      { effects: ['network'], http: { allowlist: [{ host: 'a.com', path_prefix: '/', methods: ['BREW'] }] } },
      /methods/,
    ],
    [
      'a host with a path in it',
      {
        effects: ['network'],
        http: { allowlist: [{ host: 'a.com/x', path_prefix: '/', methods: ['GET'] }] },
      },
      /host/,
    ],
    ['a zero memory cap', { effects: [], limits: { memory_mb: 0 } }, /memory_mb/],
  ])('refuses %s', (_label, file, message) => {
    expect(() => parseCapabilities(file)).toThrow(message);
  });

  it.each([
    [
      'HTTP without the network effect',
      { effects: [], http: { allowlist: [{ host: 'a.com', path_prefix: '/', methods: ['GET'] }] } },
      /needs the "network" effect/,
    ],
    [
      'a credential for a secret not listed',
      {
        effects: ['network', 'use_secret'],
        secrets: ['other'],
        http: {
          allowlist: [],
          credentials: [{ secret_name: 'key', location: { kind: 'bearer' }, host_patterns: ['a.com'] }],
        },
      },
      /not listed in \/secrets/,
    ],
    [
      'a header credential without a header name',
      {
        effects: ['use_secret'],
        secrets: ['key'],
        http: {
          allowlist: [],
          credentials: [{ secret_name: 'key', location: { kind: 'header' }, host_patterns: ['a.com'] }],
        },
      },
      /needs location.name/,
    ],
    ['secrets without use_secret', { effects: [], secrets: ['key'] }, /needs the "use_secret" effect/],
    [
      'workspace prefixes without read_filesystem',
      { effects: [], workspace: { read_prefixes: ['docs/'] } },
      /read_filesystem/,
    ],
    [
      'an absolute workspace prefix',
      { effects: ['read_filesystem'], workspace: { read_prefixes: ['/etc'] } },
      /must be relative/,
    ],
    [
      'a dot-dot workspace prefix',
      { effects: ['read_filesystem'], workspace: { read_prefixes: ['docs/../..'] } },
      /must be relative/,
    ],
    [
      'tool aliases without dispatch_capability',
      { effects: [], tool_aliases: { a: 'b' } },
      /dispatch_capability/,
    ],
  ])('refuses %s', (_label, file, message) => {
    expect(() => parseCapabilities(file)).toThrow(message);
  });

  it('throws a typed SCHEMA_VIOLATION error listing the violations', () => {
    try {
      parseCapabilities({ effects: ['teleport'], extra: 1 }, 'x.capabilities.json');
      throw new Error('expected a throw');
    } catch (error) {
      expect(error).toMatchObject({ code: 'SCHEMA_VIOLATION', name: 'CapabilitiesInvalidError' });
      expect(
        (error as { details: { violations: string[] } }).details.violations.length,
      ).toBeGreaterThanOrEqual(2);
      expect((error as Error).message).toMatch(/^x\.capabilities\.json is invalid/);
    }
  });
});
