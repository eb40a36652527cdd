import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ToolPackageRegistry } from './tool-package-registry.js';

function entry(name: string, fields: Record<string, unknown> = {}) {
  return {
    name,
    display_name: name,
    version: '1.0.0',
    wit_version: '0.1.0',
    description: `the ${name} tool`,
    keywords: [],
    artifact: { url: `${name}.wasm`, sha256: 'a'.repeat(64) },
    capabilities: { effects: [] },
    auth: { required: false, secrets: [], summary: 'none' },
    tags: [],
    ...fields,
  };
}

describe('ToolPackageRegistry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'talon-registry-'));
  let registry: ToolPackageRegistry;

  beforeAll(async () => {
    mkdirSync(join(dir, 'tools'));
    writeFileSync(
      join(dir, 'tools', 'weather.json'),
      JSON.stringify(entry('weather', { keywords: ['forecast'], tags: ['api'] })),
    );
    writeFileSync(
      join(dir, 'tools', 'stats.json'),
      JSON.stringify(entry('stats', { description: 'counts words of a forecast text' })),
    );
    writeFileSync(join(dir, 'tools', 'bad-name.json'), JSON.stringify(entry('Bad Name')));
    writeFileSync(
      join(dir, 'tools', 'bad-sha.json'),
      JSON.stringify(entry('bad-sha', { artifact: { url: 'x', sha256: 'xyz' } })),
    );
    writeFileSync(join(dir, 'tools', 'dup.json'), JSON.stringify(entry('weather')));
    writeFileSync(
      join(dir, '_bundles.json'),
      JSON.stringify({ bundles: [{ name: 'all', description: 'everything', tools: ['weather', 'stats'] }] }),
    );
    registry = await ToolPackageRegistry.open(dir);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads valid entries and reports the bad ones', () => {
    expect(
      registry
        .list()
        .map((item) => item.name)
        .sort(),
    ).toEqual(['stats', 'weather']);
    expect(registry.problems.map((problem) => problem.file).sort()).toEqual([
      'bad-name.json',
      'bad-sha.json',
      'dup.json',
    ]);
    expect(registry.problems.find((problem) => problem.file === 'dup.json')!.reason).toMatch(
      /must be in weather.json/,
    );
  });

  it('reports a registry folder it cannot read, naming it and what to set', async () => {
    const missing = await ToolPackageRegistry.open(join(dir, 'no-such-registry'));
    expect(missing.list()).toEqual([]);
    expect(missing.problems).toEqual([
      {
        file: 'tools/',
        reason: expect.stringMatching(
          /no-such-registry\/tools cannot be read \(ENOENT\).*TALON_TOOL_REGISTRY_DIR/,
        ),
      },
    ]);
  });

  it('ranks by name, keyword and tag above description matches', () => {
    expect(registry.search('forecast').map((hit) => hit.name)).toEqual(['weather', 'stats']);
    expect(registry.search('api')[0]!.name).toBe('weather');
    expect(registry.search('nothing-matches')).toEqual([]);
  });

  it('lists everything for an empty query, and reads bundles', () => {
    expect(registry.search('').map((hit) => hit.name)).toEqual(['stats', 'weather']);
    expect(registry.bundles()).toEqual([
      { name: 'all', description: 'everything', tools: ['weather', 'stats'] },
    ]);
  });
});
