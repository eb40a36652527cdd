import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspaceFixture, type WorkspaceFixture } from '../test/workspace-fixture.js';
import { createGlobTool } from './glob-tool.js';
import { createGrepTool } from './grep-tool.js';
import { InvalidToolParamsError } from './invalid-tool-params-error.js';
import { createListDirTool } from './list-dir-tool.js';
import { UnsafePatternError } from './unsafe-pattern-error.js';
import { WorkspaceEntryNotFoundError } from './workspace-entry-not-found-error.js';
import { WorkspaceEntryTypeError } from './workspace-entry-type-error.js';

let fixture: WorkspaceFixture;

beforeEach(() => {
  fixture = createWorkspaceFixture();
  fixture.write('README.md', '# Project\nTODO: write docs\n');
  fixture.write('src/index.ts', "export const a = 1; // TODO remove\nimport x from './x.js';\n");
  fixture.write('src/lib/util.ts', 'const secret = 42;\nfunction todo() {}\n');
  fixture.write('src/.hidden.ts', 'TODO hidden\n');
  fixture.write('node_modules/pkg/index.js', 'TODO in a dependency\n');
  fixture.write('.git/config', '[core] TODO\n');
  writeFileSync(
    join(fixture.root, 'image.png'),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0x54, 0x4f, 0x44, 0x4f]),
  );
  symlinkSync('src/index.ts', join(fixture.root, 'index-link.ts'));
});
afterEach(() => fixture.cleanup());

describe('list_dir', () => {
  it('lists one level with types and sizes, sorted', async () => {
    const tool = createListDirTool({ root: fixture.root });
    const result = await tool.execute({}, fixture.context);
    expect(result.path).toBe('.');
    expect(result.entries).toEqual([
      { path: '.git', type: 'directory' },
      { path: 'README.md', type: 'file', size: 27 },
      { path: 'image.png', type: 'file', size: 10 },
      { path: 'index-link.ts', type: 'symlink', linkTarget: 'src/index.ts' },
      { path: 'node_modules', type: 'directory' },
      { path: 'src', type: 'directory' },
    ]);
    expect(result.truncated).toBe(false);
  });

  it('descends to the requested depth and caps the entries', async () => {
    const tool = createListDirTool({ root: fixture.root });
    const deep = await tool.execute({ path: 'src', depth: 2 }, fixture.context);
    expect(deep.entries.map((entry) => entry.path)).toEqual([
      'src/.hidden.ts',
      'src/index.ts',
      'src/lib',
      'src/lib/util.ts',
    ]);
    const capped = await tool.execute({ path: 'src', depth: 2, maxEntries: 2 }, fixture.context);
    expect(capped.entries).toHaveLength(2);
    expect(capped.truncated).toBe(true);
  });

  it('gives typed errors for a file, a missing path and a depth above the cap', async () => {
    const tool = createListDirTool({ root: fixture.root, caps: { maxListDepth: 3 } });
    await expect(tool.execute({ path: 'README.md' }, fixture.context)).rejects.toBeInstanceOf(
      WorkspaceEntryTypeError,
    );
    await expect(tool.execute({ path: 'nope' }, fixture.context)).rejects.toBeInstanceOf(
      WorkspaceEntryNotFoundError,
    );
    await expect(tool.execute({ depth: 4 }, fixture.context)).rejects.toBeInstanceOf(InvalidToolParamsError);
  });
});

describe('glob', () => {
  it('matches files by pattern, skipping .git and node_modules and dot files', async () => {
    const tool = createGlobTool({ root: fixture.root });
    expect((await tool.execute({ pattern: '**/*.ts' }, fixture.context)).matches).toEqual([
      'index-link.ts',
      'src/index.ts',
      'src/lib/util.ts',
    ]);
    expect((await tool.execute({ pattern: '**/*.ts', dot: true }, fixture.context)).matches).toEqual([
      'index-link.ts',
      'src/.hidden.ts',
      'src/index.ts',
      'src/lib/util.ts',
    ]);
    expect((await tool.execute({ pattern: '**/*.js' }, fixture.context)).matches).toEqual([]);
  });

  it('searches node_modules when the pattern names it', async () => {
    const tool = createGlobTool({ root: fixture.root });
    expect((await tool.execute({ pattern: 'node_modules/**/*.js' }, fixture.context)).matches).toEqual([
      'node_modules/pkg/index.js',
    ]);
  });

  it('matches relative to a base path and returns root-relative paths', async () => {
    const tool = createGlobTool({ root: fixture.root });
    expect((await tool.execute({ pattern: '*.ts', path: 'src/lib' }, fixture.context)).matches).toEqual([
      'src/lib/util.ts',
    ]);
    expect(
      (await tool.execute({ pattern: '*', path: 'src', includeDirectories: true }, fixture.context)).matches,
    ).toEqual(['src/index.ts', 'src/lib']);
  });

  it('caps the results', async () => {
    for (let i = 0; i < 20; i += 1) fixture.write(`many/f${String(i).padStart(2, '0')}.txt`, 'x');
    const tool = createGlobTool({ root: fixture.root });
    const result = await tool.execute({ pattern: 'many/*.txt', maxResults: 5 }, fixture.context);
    expect(result.matches).toEqual([
      'many/f00.txt',
      'many/f01.txt',
      'many/f02.txt',
      'many/f03.txt',
      'many/f04.txt',
    ]);
    expect(result.truncated).toBe(true);
  });
});

describe('grep', () => {
  it('finds matching lines with line numbers, skipping binaries, .git, node_modules and links', async () => {
    const tool = createGrepTool({ root: fixture.root });
    const result = await tool.execute({ pattern: 'TODO' }, fixture.context);
    expect(result.matches).toEqual([
      { path: 'README.md', line: 2, text: 'TODO: write docs' },
      { path: 'src/.hidden.ts', line: 1, text: 'TODO hidden' },
      { path: 'src/index.ts', line: 1, text: 'export const a = 1; // TODO remove' },
    ]);
    expect(result.skipped).toEqual([{ path: 'image.png', reason: 'binary' }]);
    expect(result.truncated).toBe(false);
    // A pattern with quantifiers runs in the worker thread and must find the same lines.
    const inWorker = await tool.execute({ pattern: 'TOD+O\\b' }, fixture.context);
    expect(inWorker.matches).toEqual(result.matches);
  });

  it('supports ignoreCase, include globs, a single file and fixed strings', async () => {
    const tool = createGrepTool({ root: fixture.root });
    expect(
      (
        await tool.execute({ pattern: 'todo', ignoreCase: true, include: '**/*.ts' }, fixture.context)
      ).matches.map((m) => `${m.path}:${m.line}`),
    ).toEqual(['src/.hidden.ts:1', 'src/index.ts:1', 'src/lib/util.ts:2']);
    expect(
      (await tool.execute({ pattern: 'secret', path: 'src/lib/util.ts' }, fixture.context)).matches,
    ).toEqual([{ path: 'src/lib/util.ts', line: 1, text: 'const secret = 42;' }]);
    expect(
      (await tool.execute({ pattern: "'./x.js'", fixedString: true }, fixture.context)).matches.map(
        (m) => m.path,
      ),
    ).toEqual(['src/index.ts']);
    expect((await tool.execute({ pattern: '(a+)+$', fixedString: true }, fixture.context)).matches).toEqual(
      [],
    );
  });

  it('stops at maxMatches', async () => {
    fixture.write('many.txt', Array.from({ length: 50 }, () => 'hit').join('\n'));
    const tool = createGrepTool({ root: fixture.root });
    for (const pattern of ['hit', 'hi+t']) {
      const result = await tool.execute({ pattern, path: 'many.txt', maxMatches: 7 }, fixture.context);
      expect(result.matches).toHaveLength(7);
      expect(result.truncated).toBe(true);
    }
    const exact = await tool.execute({ pattern: 'hi+t', path: 'many.txt', maxMatches: 50 }, fixture.context);
    expect(exact).toMatchObject({ truncated: false });
    expect(exact.matches).toHaveLength(50);
  });

  it('refuses catastrophic and invalid regexes before reading any file', async () => {
    fixture.write('evil.txt', 'a'.repeat(40) + 'b');
    const tool = createGrepTool({ root: fixture.root });
    await expect(tool.execute({ pattern: '(a+)+$' }, fixture.context)).rejects.toBeInstanceOf(
      UnsafePatternError,
    );
    await expect(tool.execute({ pattern: '(a|aa)*c' }, fixture.context)).rejects.toBeInstanceOf(
      UnsafePatternError,
    );
    await expect(tool.execute({ pattern: 'x'.repeat(2000) }, fixture.context)).rejects.toBeInstanceOf(
      UnsafePatternError,
    );
    await expect(tool.execute({ pattern: '([a-z' }, fixture.context)).rejects.toBeInstanceOf(
      InvalidToolParamsError,
    );
  });

  it('skips files above the size cap and files that take too long', async () => {
    fixture.write('large.txt', 'x'.repeat(5000));
    // Polynomial backtracking on long lines: allowed by the static guard, stopped by the per-file time cap.
    fixture.write('slow.txt', Array.from({ length: 2000 }, () => 'a'.repeat(3000)).join('\n'));
    const tool = createGrepTool({
      root: fixture.root,
      caps: { maxGrepFileBytes: 4096 * 2000, grepFileTimeMs: 50 },
    });
    const started = Date.now();
    const result = await tool.execute(
      { pattern: '\\w*a*b', path: '.', include: '{slow,large}.txt' },
      fixture.context,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.skipped).toContainEqual({ path: 'slow.txt', reason: 'time_limit' });
    const capped = createGrepTool({ root: fixture.root, caps: { maxGrepFileBytes: 1000 } });
    expect((await capped.execute({ pattern: 'x', include: 'large.txt' }, fixture.context)).skipped).toEqual([
      { path: 'large.txt', reason: 'too_large' },
    ]);
  });

  it('gives a typed error for a missing path', async () => {
    mkdirSync(join(fixture.root, 'empty'));
    const tool = createGrepTool({ root: fixture.root });
    await expect(tool.execute({ pattern: 'x', path: 'missing' }, fixture.context)).rejects.toBeInstanceOf(
      WorkspaceEntryNotFoundError,
    );
    expect((await tool.execute({ pattern: 'x', path: 'empty' }, fixture.context)).matches).toEqual([]);
  });
});
