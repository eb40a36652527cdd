import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TalonError } from '@talon/errors';
import { discoverSkills, installSkill, removeSkill, SkillIntegrityError, SkillSearch } from '../src/index.js';

const SKILL =
  '---\nname: weather-check\nversion: 1.4.0\ndescription: Checks the weather forecast for a city.\nactivation:\n  keywords: [weather, forecast]\n---\nAsk for the city, then fetch the forecast.\n';
const SHA = createHash('sha256').update(SKILL).digest('hex');

let work: string;
let installedDir: string;
let registryDir: string;
let server: Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'talon-skill-installer-'));
  installedDir = join(work, 'installed');
  registryDir = join(work, 'registry', 'skills');
  await mkdir(registryDir, { recursive: true });
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/weather/SKILL.md') res.end(SKILL);
    else if (req.url === '/huge') res.end('x'.repeat(1_200_000));
    else if (req.url === '/chunked-huge') {
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      for (let i = 0; i < 1100; i++) res.write('y'.repeat(1024));
      res.end();
    } else if (req.url === '/redirect') res.writeHead(302, { location: '/weather/SKILL.md' }).end();
    else if (req.url === '/evil') res.end('---\nname: ../../etc\ndescription: escape\n---\nx\n');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(work, { recursive: true, force: true });
});

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return TalonError.isInstance(error) ? error.code : `untyped: ${String(error)}`;
  }
};

describe('installSkill', () => {
  it('installs from a URL on a real server with the sha256 checked, as Installed', async () => {
    const result = await installSkill(
      { source: { kind: 'url', url: `${base}/weather/SKILL.md`, sha256: SHA } },
      { installedDir },
    );
    expect(result).toEqual({
      name: 'weather-check',
      version: '1.4.0',
      path: join(installedDir, 'weather-check', 'SKILL.md'),
      sha256: SHA,
      trust: 'INSTALLED',
      replaced: false,
    });
    expect(await readFile(result.path, 'utf8')).toBe(SKILL);
    const snapshot = await discoverSkills({ dirs: { installed: installedDir } });
    expect(snapshot.skills.map((s) => [s.name, s.trust])).toEqual([['weather-check', 'INSTALLED']]);
    expect(new SkillSearch(snapshot.skills).search('forecast')[0]!.skill.name).toBe('weather-check');
    expect((await readdir(installedDir)).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('refuses a sha256 mismatch with INTEGRITY_MISMATCH and writes nothing', async () => {
    const dir = join(work, 'mismatch');
    let error: unknown;
    try {
      await installSkill(
        { source: { kind: 'url', url: `${base}/weather/SKILL.md`, sha256: '0'.repeat(64) } },
        { installedDir: dir },
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SkillIntegrityError);
    expect((error as SkillIntegrityError).code).toBe('INTEGRITY_MISMATCH');
    expect((error as SkillIntegrityError).details).toMatchObject({ expected: '0'.repeat(64), actual: SHA });
    await expect(readdir(dir)).rejects.toThrow();
  });

  it('installs from a registry entry (path and URL sources) and checks the entry against the file', async () => {
    await mkdir(join(work, 'src', 'weather-check'), { recursive: true });
    await writeFile(join(work, 'src', 'weather-check', 'SKILL.md'), SKILL);
    await writeFile(
      join(registryDir, 'weather-check.json'),
      JSON.stringify({
        name: 'weather-check',
        version: '1.4.0',
        description: 'Weather',
        source: { path: '../../src/weather-check/SKILL.md' },
        sha256: SHA,
      }),
    );
    await writeFile(
      join(registryDir, 'remote-weather.json'),
      JSON.stringify({
        name: 'remote-weather',
        version: '1',
        description: 'Weather',
        source: { url: `${base}/weather/SKILL.md` },
        sha256: SHA,
      }),
    );
    await writeFile(join(registryDir, 'broken.json'), JSON.stringify({ name: 'broken', source: {} }));
    const dir = join(work, 'from-registry');
    expect(
      (
        await installSkill(
          { source: { kind: 'registry', name: 'weather-check' } },
          { installedDir: dir, registryDir },
        )
      ).name,
    ).toBe('weather-check');
    expect(
      await codeOf(
        installSkill(
          { source: { kind: 'registry', name: 'remote-weather' } },
          { installedDir: join(work, 'r2'), registryDir },
        ),
      ),
    ).toBe('INTEGRITY_MISMATCH');
    expect(
      await codeOf(
        installSkill({ source: { kind: 'registry', name: 'broken' } }, { installedDir: dir, registryDir }),
      ),
    ).toBe('SCHEMA_VIOLATION');
    expect(
      await codeOf(
        installSkill({ source: { kind: 'registry', name: 'missing' } }, { installedDir: dir, registryDir }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        installSkill(
          { source: { kind: 'registry', name: '../weather-check' } },
          { installedDir: dir, registryDir },
        ),
      ),
    ).toBe('NOT_FOUND');
  });

  it('installs from a local path, refuses to overwrite unless asked, and replaces atomically', async () => {
    const dir = join(work, 'from-path');
    const path = join(work, 'src', 'weather-check');
    expect((await installSkill({ source: { kind: 'path', path } }, { installedDir: dir })).replaced).toBe(
      false,
    );
    expect(await codeOf(installSkill({ source: { kind: 'path', path } }, { installedDir: dir }))).toBe(
      'NAME_CONFLICT',
    );
    expect(
      (
        await installSkill(
          { source: { kind: 'path', path, sha256: SHA }, replace: true },
          { installedDir: dir },
        )
      ).replaced,
    ).toBe(true);
    expect(await readdir(dir)).toEqual(['weather-check']);
  });

  it('caps downloads, refuses redirects, non-http schemes, bad files and names that escape', async () => {
    const dir = join(work, 'refused');
    expect(
      await codeOf(installSkill({ source: { kind: 'url', url: `${base}/huge` } }, { installedDir: dir })),
    ).toBe('PAYLOAD_TOO_LARGE');
    expect(
      await codeOf(
        installSkill({ source: { kind: 'url', url: `${base}/chunked-huge` } }, { installedDir: dir }),
      ),
    ).toBe('PAYLOAD_TOO_LARGE');
    expect(
      await codeOf(installSkill({ source: { kind: 'url', url: `${base}/redirect` } }, { installedDir: dir })),
    ).toBe('TOOL_FAILED');
    expect(
      await codeOf(
        installSkill({ source: { kind: 'url', url: 'file:///etc/passwd' } }, { installedDir: dir }),
      ),
    ).toBe('POLICY_DENIED');
    expect(
      await codeOf(installSkill({ source: { kind: 'url', url: `${base}/evil` } }, { installedDir: dir })),
    ).toBe('SCHEMA_VIOLATION');
    expect(
      await codeOf(installSkill({ source: { kind: 'url', url: `${base}/nothing` } }, { installedDir: dir })),
    ).toBe('TOOL_FAILED');
    const denied = await codeOf(
      installSkill(
        { source: { kind: 'url', url: `${base}/weather/SKILL.md` } },
        {
          installedDir: dir,
          checkUrl: () => {
            throw new TalonError('SSRF_BLOCKED', 'blocked by test guard');
          },
        },
      ),
    );
    expect(denied).toBe('SSRF_BLOCKED');
    await expect(readdir(dir)).rejects.toThrow();
  });
});

describe('removeSkill', () => {
  it('removes an installed skill and refuses names that escape the directory', async () => {
    const dir = join(work, 'remove');
    await installSkill({ source: { kind: 'url', url: `${base}/weather/SKILL.md` } }, { installedDir: dir });
    expect(await removeSkill('weather-check', { installedDir: dir })).toEqual({
      name: 'weather-check',
      removed: true,
    });
    expect(await removeSkill('weather-check', { installedDir: dir })).toEqual({
      name: 'weather-check',
      removed: false,
    });
    for (const name of ['..', '../remove', '/etc', 'a/b', ''])
      expect(await codeOf(removeSkill(name, { installedDir: dir }))).toBe('NAME_CONFLICT');
  });
});
