import { describe, expect, it } from '@jest/globals';
import { deriveCapabilities, readSourceNeeds } from './derived-capabilities.js';

const HOST = "import { httpRequest, secretExists } from 'talon:tool/host@0.1.0';\n";

describe('deriveCapabilities', () => {
  const requested = {
    effects: ['network' as const, 'use_secret' as const],
    http: {
      allowlist: [
        { host: 'api.example.com', path_prefix: '/v1/', methods: ['GET' as const] },
        { host: 'unused.example.com', path_prefix: '/', methods: ['GET' as const] },
      ],
      credentials: [
        {
          secret_name: 'api_key',
          location: { kind: 'bearer' as const },
          host_patterns: ['api.example.com'],
        },
      ],
    },
    secrets: ['api_key', 'other_key'],
  };

  it('keeps only the requested entries the source uses, their credentials and the effects of its imports', () => {
    const source = `${HOST}const URL = 'https://api.example.com/v1/items?q=\${q}';\nsecretExists('api_key');`;
    const derived = deriveCapabilities(source, requested);
    expect(derived.refused).toEqual([]);
    expect(derived.capabilities).toEqual({
      effects: ['network', 'use_secret'],
      http: {
        allowlist: [{ host: 'api.example.com', path_prefix: '/v1/', methods: ['GET'] }],
        credentials: requested.http.credentials,
      },
      secrets: ['api_key'],
    });
  });

  it('refuses a literal host, a path outside the prefix and a secret that were not requested', () => {
    const source = `${HOST}httpRequest({ url: 'https://evil.example.net/x' }); httpRequest({ url: 'https://api.example.com/v2/' }); secretExists("stolen");`;
    const { refused } = deriveCapabilities(source, requested);
    expect(refused).toEqual([
      expect.stringContaining('https://api.example.com/v2/'),
      expect.stringContaining('https://evil.example.net/x'),
      expect.stringContaining('secret stolen'),
    ]);
  });

  it('refuses HTTP with no allowlist requested, and grants nothing to a pure computation', () => {
    expect(deriveCapabilities(`${HOST}httpRequest({ url: input });`).refused).toEqual([
      expect.stringContaining('no http allowlist'),
    ]);
    expect(deriveCapabilities('export function execute() {}', requested).capabilities).toEqual({
      effects: [],
    });
  });

  it('reads renamed imports and literal arguments', () => {
    const needs = readSourceNeeds(
      "import { workspaceRead as read, toolInvoke } from 'talon:tool/host@0.1.0';\nworkspaceRead('docs/a.md'); toolInvoke('stats', '{}');",
    );
    expect(needs).toMatchObject({
      imports: ['toolInvoke', 'workspaceRead'],
      workspacePaths: ['docs/a.md'],
      aliases: ['stats'],
    });
  });
});
