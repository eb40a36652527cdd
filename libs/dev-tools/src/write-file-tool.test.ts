import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspaceFixture, type WorkspaceFixture } from '../test/workspace-fixture.js';
import { commitStagedFile, stageFile, writeFileAtomically } from './atomic-file-writer.js';
import { PathOutsideWorkspaceError } from './path-outside-workspace-error.js';
import { WorkspaceEntryNotFoundError } from './workspace-entry-not-found-error.js';
import { WorkspaceEntryTypeError } from './workspace-entry-type-error.js';
import { WorkspaceLimitExceededError } from './workspace-limit-exceeded-error.js';
import { WorkspaceRoot } from './workspace-root.js';
import { createWriteFileTool } from './write-file-tool.js';

let fixture: WorkspaceFixture;

beforeEach(() => {
  fixture = createWorkspaceFixture();
});
afterEach(() => fixture.cleanup());

/** Every file name below a directory, recursively (to spot leftover temporary files). */
function allNames(directory: string): string[] {
  return readdirSync(directory, { recursive: true }).map(String).sort();
}

describe('write_file', () => {
  it('creates a file with its parent directories and reports it', async () => {
    const tool = createWriteFileTool({ root: fixture.root });
    expect(await tool.execute({ path: 'src/deep/new.ts', content: 'export {};\n' }, fixture.context)).toEqual(
      { path: 'src/deep/new.ts', bytesWritten: 11, created: true },
    );
    expect(readFileSync(join(fixture.root, 'src/deep/new.ts'), 'utf8')).toBe('export {};\n');
    expect(allNames(fixture.root)).toEqual(['src', 'src/deep', 'src/deep/new.ts']);
  });

  it('replaces an existing file, keeping its mode, and leaves no temporary file', async () => {
    const path = fixture.write('script.sh', 'old');
    chmodSync(path, 0o750);
    const tool = createWriteFileTool({ root: fixture.root });
    expect(await tool.execute({ path: 'script.sh', content: 'new' }, fixture.context)).toMatchObject({
      created: false,
      bytesWritten: 3,
    });
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(statSync(path).mode & 0o777).toBe(0o750);
    expect(allNames(fixture.root)).toEqual(['script.sh']);
  });

  it('leaves no temporary file when the final rename fails', async () => {
    mkdirSync(join(fixture.root, 'target'));
    fixture.write('target/keep.txt', 'keep');
    const workspace = new WorkspaceRoot(fixture.root);
    // rename(file, non-empty directory) fails after the content was staged and flushed.
    await expect(writeFileAtomically(workspace, join(fixture.root, 'target'), 'x')).rejects.toThrow();
    expect(allNames(fixture.root)).toEqual(['target', 'target/keep.txt']);
  });

  it('refuses the commit when the parent directory was swapped for a link out of the root', async () => {
    mkdirSync(join(fixture.root, 'dir'));
    const workspace = new WorkspaceRoot(fixture.root);
    const staged = await stageFile(workspace, join(fixture.root, 'dir', 'file.txt'), 'x');
    renameSync(join(fixture.root, 'dir'), join(fixture.root, 'moved'));
    symlinkSync(fixture.outside, join(fixture.root, 'dir'));
    await expect(commitStagedFile(workspace, staged)).rejects.toBeInstanceOf(PathOutsideWorkspaceError);
    expect(readdirSync(fixture.outside)).toEqual(['secret.txt']);
  });

  it('refuses to write into a directory that is a file', async () => {
    fixture.write('file', 'x');
    const tool = createWriteFileTool({ root: fixture.root });
    await expect(
      tool.execute({ path: 'file/child.txt', content: 'x' }, fixture.context),
    ).rejects.toBeInstanceOf(WorkspaceEntryTypeError);
    await expect(
      tool.execute({ path: 'file/a/b.txt', content: 'x' }, fixture.context),
    ).rejects.toBeInstanceOf(WorkspaceEntryTypeError);
    expect(allNames(fixture.root)).toEqual(['file']);
  });

  it('refuses to write through a symlink, even one that stays inside', async () => {
    fixture.write('real.txt', 'real');
    symlinkSync('real.txt', join(fixture.root, 'alias.txt'));
    const tool = createWriteFileTool({ root: fixture.root });
    await expect(tool.execute({ path: 'alias.txt', content: 'x' }, fixture.context)).rejects.toBeInstanceOf(
      PathOutsideWorkspaceError,
    );
    expect(readFileSync(join(fixture.root, 'real.txt'), 'utf8')).toBe('real');
  });

  it('treats %2e%2e literally: it creates a directory named so inside the root', async () => {
    const tool = createWriteFileTool({ root: fixture.root });
    await tool.execute({ path: '%2e%2e/%2e%2e/x.txt', content: 'x' }, fixture.context);
    expect(readFileSync(join(fixture.root, '%2e%2e', '%2e%2e', 'x.txt'), 'utf8')).toBe('x');
    expect(readdirSync(fixture.outside)).toEqual(['secret.txt']);
  });

  it('refuses content above the cap and missing parents when told not to create them', async () => {
    const tool = createWriteFileTool({ root: fixture.root, caps: { maxWriteBytes: 10 } });
    await expect(
      tool.execute({ path: 'a.txt', content: 'x'.repeat(11) }, fixture.context),
    ).rejects.toBeInstanceOf(WorkspaceLimitExceededError);
    await expect(
      tool.execute({ path: 'no/such/dir.txt', content: 'x', createDirectories: false }, fixture.context),
    ).rejects.toBeInstanceOf(WorkspaceEntryNotFoundError);
    expect(allNames(fixture.root)).toEqual([]);
  });

  it('is atomic for concurrent readers: they see the old or the new content, never a mix', async () => {
    const path = fixture.write('big.txt', 'a'.repeat(2_000_000));
    const tool = createWriteFileTool({ root: fixture.root });
    const writing = tool.execute({ path: 'big.txt', content: 'b'.repeat(2_000_000) }, fixture.context);
    const seen = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      const content = readFileSync(path, 'utf8');
      seen.add(
        content.length === 2_000_000 &&
          (content === 'a'.repeat(2_000_000) || content === 'b'.repeat(2_000_000))
          ? 'whole'
          : 'torn',
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writing;
    expect(seen).toEqual(new Set(['whole']));
    expect(readFileSync(path, 'utf8')).toBe('b'.repeat(2_000_000));
  });
});
