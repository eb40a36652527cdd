import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listSkillFiles, readSkillTextFile } from '../src/index.js';

let work: string;
let dir: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'talon-skill-files-'));
  dir = join(work, 'skills', 'guide');
  await mkdir(join(dir, 'references', 'deep'), { recursive: true });
  await mkdir(join(dir, 'scripts'));
  await writeFile(join(dir, 'SKILL.md'), '---\nname: guide\ndescription: d\n---\nbody\n');
  await writeFile(join(dir, 'references', 'a.md'), 'alpha');
  await writeFile(join(dir, 'references', 'deep', 'b.md'), 'beta');
  await writeFile(join(dir, 'scripts', 'run.sh'), '#!/bin/sh\necho hi\n');
  await writeFile(join(dir, 'scripts', 'tool.bin'), Buffer.from([0x7f, 0x45, 0x00, 0x01]));
  await writeFile(join(dir, 'references', 'big.md'), `${'é'.repeat(40_000)}`);
  await writeFile(join(dir, '.hidden'), 'x');
  await writeFile(join(work, 'secret.txt'), 'secret');
  await symlink(join(work, 'secret.txt'), join(dir, 'references', 'link.md'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('skill folder files', () => {
  it('lists the files of a skill folder without SKILL.md and dot-files', async () => {
    expect(await listSkillFiles(dir)).toEqual({
      files: ['references/a.md', 'references/big.md', 'references/deep/b.md', 'scripts/run.sh', 'scripts/tool.bin'],
      truncated: false,
    });
  });

  it('reads text files, cut at the cap on a character boundary', async () => {
    expect(await readSkillTextFile('guide', dir, 'references/deep/b.md')).toEqual({
      path: 'references/deep/b.md',
      content: 'beta',
      bytes: 4,
      truncated: false,
    });
    const big = await readSkillTextFile('guide', dir, 'references/big.md', 1001);
    expect(big).toMatchObject({ truncated: true, bytes: 80_000 });
    expect(big.content).toBe('é'.repeat(500));
  });

  it('refuses every way out of the folder, binary files and missing files with typed errors', async () => {
    for (const path of ['../../secret.txt', '/etc/passwd', 'references/../../../secret.txt', 'references/link.md', 'a\0b'])
      await expect(readSkillTextFile('guide', dir, path)).rejects.toMatchObject({ code: 'PATH_OUTSIDE_SKILL' });
    await expect(readSkillTextFile('guide', dir, 'scripts/tool.bin')).rejects.toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    await expect(readSkillTextFile('guide', dir, 'references/none.md')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(readSkillTextFile('guide', dir, 'references')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
