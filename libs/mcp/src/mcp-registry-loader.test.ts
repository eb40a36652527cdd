import { describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { standardConfigVariables } from './mcp-config-variables.js';
import { loadMcpServerRegistry, mergeMcpServerDefinitions } from './mcp-registry-loader.js';
import { parseMcpServerConfig } from './mcp-server-config.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('loadMcpServerRegistry', () => {
  it('loads the shipped registry with paths under the given root', async () => {
    const variables = standardConfigVariables({ root: '/opt/talon', workspace: '/ws', dataDir: '/data' });
    const servers = await loadMcpServerRegistry(join(ROOT, 'registry/mcp-servers'), { variables });
    expect(servers.map((server) => server.name)).toEqual(['everything', 'filesystem', 'memory']);
    const filesystem = servers.find((server) => server.name === 'filesystem');
    expect(filesystem?.transport).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: ['/opt/talon/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', '/ws'],
      env: {},
    });
    expect(servers.find((server) => server.name === 'memory')?.transport).toMatchObject({
      env: { MEMORY_FILE_PATH: '/data/memory/mcp-memory.jsonl' },
    });
  });

  it('refuses a registry directory that cannot be read with a typed error that names it', async () => {
    const missing = join(tmpdir(), 'talon-mcp-registry-missing', 'servers');
    const error = await loadMcpServerRegistry(missing).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'McpConfigError', code: 'SCHEMA_VIOLATION' });
    expect((error as Error).message).toContain(missing);
    expect((error as Error).message).toContain('ENOENT');
    expect((error as Error).message).toContain('TALON_MCP_REGISTRY_DIR');
  });

  it('lists every broken file in one error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'talon-mcp-registry-'));
    try {
      await writeFile(join(dir, 'a.json'), '{ not json');
      await writeFile(
        join(dir, 'b.json'),
        JSON.stringify({ name: 'dup', transport: { type: 'stdio', command: 'x' } }),
      );
      await writeFile(
        join(dir, 'c.json'),
        JSON.stringify({ name: 'dup', transport: { type: 'stdio', command: 'y' } }),
      );
      await writeFile(
        join(dir, 'd.json'),
        JSON.stringify({ name: 'bad', transport: { type: 'carrier-pigeon' } }),
      );
      await writeFile(join(dir, 'notes.txt'), 'ignored');
      const error = (await loadMcpServerRegistry(dir).catch((caught: unknown) => caught)) as {
        code: string;
        details: { problems: string[] };
      };
      expect(error.code).toBe('SCHEMA_VIOLATION');
      expect(error.details.problems).toEqual([
        expect.stringContaining('a.json: not valid JSON'),
        expect.stringContaining('d.json'),
        expect.stringContaining('c.json: server name "dup" is already used by b.json'),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lets a user definition replace a registry one of the same name', () => {
    const registry = [parseMcpServerConfig({ name: 'a', transport: { type: 'stdio', command: 'x' } })];
    const user = [
      parseMcpServerConfig({ name: 'a', transport: { type: 'stdio', command: 'y' } }),
      parseMcpServerConfig({ name: 'b', transport: { type: 'stdio', command: 'z' } }),
    ];
    expect(
      mergeMcpServerDefinitions(registry, user).map((server) => [
        server.name,
        (server.transport as { command: string }).command,
      ]),
    ).toEqual([
      ['a', 'y'],
      ['b', 'z'],
    ]);
  });
});
