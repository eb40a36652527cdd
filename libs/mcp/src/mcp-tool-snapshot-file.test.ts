import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMcpToolSnapshot, writeMcpToolSnapshot } from './mcp-tool-snapshot-file.js';

describe('MCP tool snapshot file', () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'talon-snapshot-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('round-trips a snapshot, creating the directory', async () => {
    const file = join(await tempDir(), 'nested', 'mcp-tools.json');
    const snapshot = { everything: [{ name: 'echo', inputSchema: { type: 'object' as const } }] };
    await writeMcpToolSnapshot(file, snapshot);
    expect(await readMcpToolSnapshot(file)).toEqual(snapshot);
  });

  it('reads a missing, broken or wrongly shaped file as empty', async () => {
    const dir = await tempDir();
    expect(await readMcpToolSnapshot(join(dir, 'missing.json'))).toEqual({});
    await writeFile(join(dir, 'broken.json'), '{"everything": [');
    expect(await readMcpToolSnapshot(join(dir, 'broken.json'))).toEqual({});
    await writeFile(join(dir, 'list.json'), '[1, 2]');
    expect(await readMcpToolSnapshot(join(dir, 'list.json'))).toEqual({});
    await writeFile(join(dir, 'mixed.json'), '{"good": [], "bad": "nope"}');
    expect(await readMcpToolSnapshot(join(dir, 'mixed.json'))).toEqual({ good: [] });
  });
});
