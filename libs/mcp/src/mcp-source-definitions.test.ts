import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMcpSourceDefinitions } from './mcp-source-definitions.js';

describe('loadMcpSourceDefinitions', () => {
  let base: string;
  let registryDir: string;
  const variables = { NODE: '/usr/bin/node', TALON_ROOT: '/opt/talon' };

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'talon-mcp-defs-'));
    registryDir = join(base, 'registry');
    await mkdir(registryDir);
    await writeFile(
      join(registryDir, 'local.json'),
      JSON.stringify({
        name: 'local',
        transport: { type: 'stdio', command: '${NODE}', args: ['${TALON_ROOT}/server.js'] },
      }),
    );
    await writeFile(
      join(registryDir, 'remote.json'),
      JSON.stringify({
        name: 'remote',
        transport: { type: 'streamable-http', url: 'https://mcp.example.test/mcp' },
      }),
    );
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('keeps only the requested transports and expands variables', async () => {
    const stdio = await loadMcpSourceDefinitions({ registryDir, variables, transports: ['stdio'] });
    expect(stdio.map((definition) => definition.name)).toEqual(['local']);
    expect(stdio[0]!.transport).toMatchObject({ command: '/usr/bin/node', args: ['/opt/talon/server.js'] });
    const remote = await loadMcpSourceDefinitions({
      registryDir,
      variables,
      transports: ['streamable-http', 'sse'],
    });
    expect(remote.map((definition) => definition.name)).toEqual(['remote']);
  });

  it('lets the user config add servers and replace registry ones by name', async () => {
    const userConfigFile = join(base, 'user.json');
    await writeFile(
      userConfigFile,
      JSON.stringify([
        { name: 'local', transport: { type: 'stdio', command: '/bin/true' }, idle_stop_ms: 5 },
        { name: 'extra', transport: { type: 'sse', url: 'http://127.0.0.1:9/sse' } },
      ]),
    );
    const all = await loadMcpSourceDefinitions({
      registryDir,
      userConfigFile,
      variables,
      transports: ['stdio', 'sse', 'streamable-http'],
    });
    expect(all.map((definition) => definition.name).sort()).toEqual(['extra', 'local', 'remote']);
    expect(all.find((definition) => definition.name === 'local')).toMatchObject({
      idleStopMs: 5,
      transport: { command: '/bin/true' },
    });
  });

  it('fails with a readable config error for a broken user file', async () => {
    const notJson = join(base, 'broken.json');
    await writeFile(notJson, '[{');
    await expect(
      loadMcpSourceDefinitions({ registryDir, userConfigFile: notJson, variables, transports: ['stdio'] }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('cannot be read as JSON'),
    });
    const notList = join(base, 'object.json');
    await writeFile(notList, '{"name": "x"}');
    await expect(
      loadMcpSourceDefinitions({ registryDir, userConfigFile: notList, variables, transports: ['stdio'] }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('must be a JSON list'),
    });
    const badEntry = join(base, 'bad-entry.json');
    await writeFile(
      badEntry,
      JSON.stringify([{ name: 'bad name', transport: { type: 'stdio', command: 'x' } }]),
    );
    await expect(
      loadMcpSourceDefinitions({ registryDir, userConfigFile: badEntry, variables, transports: ['stdio'] }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('entry 0'),
    });
    await expect(
      loadMcpSourceDefinitions({
        registryDir,
        userConfigFile: join(base, 'missing.json'),
        variables,
        transports: ['stdio'],
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('missing.json') });
  });
});
