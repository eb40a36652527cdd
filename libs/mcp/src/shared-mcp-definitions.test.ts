import { describe, expect, it } from '@jest/globals';
import type { SharedMcpServerRecord } from '@talon/contracts';
import { parseMcpServerConfig } from './mcp-server-config.js';
import {
  effectiveMcpDefinitions,
  effectiveMcpServerNames,
  mcpDefinitionFingerprint,
} from './shared-mcp-definitions.js';

const variables = {
  NODE: '/usr/bin/node',
  TALON_ROOT: '/opt/talon',
  TALON_WORKSPACE: '/w',
  TALON_DATA_DIR: '/d',
};
const record = (definition: SharedMcpServerRecord['definition']): SharedMcpServerRecord => ({
  definition,
  added_at: '2026-01-01T00:00:00.000Z',
});

describe('effectiveMcpDefinitions', () => {
  const file = parseMcpServerConfig(
    {
      name: 'files',
      transport: { type: 'stdio', command: '${NODE}', args: ['server.js'] },
    },
    { variables },
  );

  it('adds shared definitions, expanded with this replica variables, marked source api', () => {
    const refused: string[] = [];
    const result = effectiveMcpDefinitions({
      files: [file],
      shared: new Map([
        ['added', record({ name: 'added', transport: { type: 'stdio', command: '${TALON_ROOT}/bin/x' } })],
        [
          'remote',
          record({ name: 'remote', transport: { type: 'streamable-http', url: 'https://a.example/mcp' } }),
        ],
      ]),
      variables,
      transports: ['stdio'],
      onRefused: (server) => refused.push(server),
    });
    expect(result.map((definition) => [definition.name, definition.source ?? 'file'])).toEqual([
      ['files', 'file'],
      ['added', 'api'],
    ]);
    expect(result[1]?.transport).toMatchObject({ command: '/opt/talon/bin/x' });
    expect(refused).toEqual([]);
  });

  it('lets a file win a name both use, and skips records that do not parse or are misnamed', () => {
    const refused: Array<[string, string]> = [];
    const result = effectiveMcpDefinitions({
      files: [file],
      shared: new Map([
        ['files', record({ name: 'files', transport: { type: 'stdio', command: '/other' } })],
        ['typo', record({ name: 'typo', transport: { type: 'stdio', command: '${NOPE}' } })],
        ['alias', record({ name: 'other', transport: { type: 'stdio', command: '/x' } })],
      ]),
      variables,
      transports: ['stdio'],
      onRefused: (server, reason) => refused.push([server, reason]),
    });
    expect(result).toEqual([file]);
    expect(refused.map(([server]) => server).sort()).toEqual(['alias', 'files', 'typo']);
    expect(refused.find(([server]) => server === 'files')?.[1]).toContain('file wins');
  });
});

describe('effectiveMcpServerNames', () => {
  it('names file and shared servers over every transport, files winning, sorted', () => {
    const files = [
      parseMcpServerConfig({ name: 'zeta', transport: { type: 'stdio', command: '${NODE}' } }, { variables }),
      parseMcpServerConfig({ name: 'docs', transport: { type: 'sse', url: 'https://d.example/sse' } }),
    ];
    const refused: string[] = [];
    const names = effectiveMcpServerNames(
      files,
      new Map([
        [
          'remote',
          record({ name: 'remote', transport: { type: 'streamable-http', url: 'https://r.example' } }),
        ],
        ['local', record({ name: 'local', transport: { type: 'stdio', command: '${TALON_DATA_DIR}/srv' } })],
        ['zeta', record({ name: 'zeta', transport: { type: 'stdio', command: '/other' } })],
      ]),
      (server) => refused.push(server),
    );
    expect(names).toEqual(['docs', 'local', 'remote', 'zeta']);
    expect(refused).toEqual(['zeta']);
  });
});

describe('mcpDefinitionFingerprint', () => {
  it('changes with the definition and not otherwise', () => {
    const a = parseMcpServerConfig({ name: 'a', transport: { type: 'stdio', command: '/x' } });
    const same = parseMcpServerConfig({ name: 'a', transport: { type: 'stdio', command: '/x' } });
    const other = parseMcpServerConfig({ name: 'a', transport: { type: 'stdio', command: '/y' } });
    expect(mcpDefinitionFingerprint(a)).toBe(mcpDefinitionFingerprint(same));
    expect(mcpDefinitionFingerprint(a)).not.toBe(mcpDefinitionFingerprint(other));
  });
});
