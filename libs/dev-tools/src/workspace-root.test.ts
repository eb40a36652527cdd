import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspaceFixture, type WorkspaceFixture } from '../test/workspace-fixture.js';
import { PathOutsideWorkspaceError } from './path-outside-workspace-error.js';
import { WorkspaceRoot } from './workspace-root.js';

let fixture: WorkspaceFixture;
let workspace: WorkspaceRoot;

beforeEach(() => {
  fixture = createWorkspaceFixture();
  workspace = new WorkspaceRoot(fixture.root);
});
afterEach(() => fixture.cleanup());

async function refusal(path: unknown, forWrite = false): Promise<string> {
  const attempt = forWrite ? workspace.resolveForWrite(path) : workspace.resolve(path);
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PathOutsideWorkspaceError);
  expect((error as PathOutsideWorkspaceError).code).toBe('PATH_OUTSIDE_WORKSPACE');
  return ((error as PathOutsideWorkspaceError).details as { reason: string }).reason;
}

describe('WorkspaceRoot.resolve', () => {
  it('resolves ordinary, nested, dot and not-yet-existing paths inside the root', async () => {
    fixture.write('src/a.ts', 'x');
    expect(await workspace.resolve('src/a.ts')).toEqual({
      absolute: join(fixture.root, 'src/a.ts'),
      relative: 'src/a.ts',
      exists: true,
    });
    expect((await workspace.resolve('.')).relative).toBe('.');
    expect((await workspace.resolve('./src/../src/a.ts')).relative).toBe('src/a.ts');
    expect(await workspace.resolve('new/dir/file.txt')).toEqual({
      absolute: join(fixture.root, 'new/dir/file.txt'),
      relative: 'new/dir/file.txt',
      exists: false,
    });
    expect((await workspace.resolve(join(fixture.root, 'src/a.ts'))).relative).toBe('src/a.ts');
  });

  it('treats percent-encoded dots literally, as a file name', async () => {
    expect((await workspace.resolve('%2e%2e/%2e%2e/etc/passwd')).relative).toBe('%2e%2e/%2e%2e/etc/passwd');
  });

  it.each<[string, string]>([
    ['../outside/secret.txt', 'parent_traversal'],
    ['../../etc/passwd', 'parent_traversal'],
    ['foo/../../x', 'parent_traversal'],
    ['./../', 'parent_traversal'],
    ['src/..//../', 'parent_traversal'],
    ['..', 'parent_traversal'],
    ['/etc/passwd', 'absolute_outside'],
    ['/', 'absolute_outside'],
    ['file\0.txt', 'nul_byte'],
    ['', 'empty'],
    ['..\\..\\etc\\passwd', 'backslash'],
    ['C:/Windows/system.ini', 'windows_drive'],
    ['~/.ssh/id_rsa', 'home_expansion'],
    ['~root/.bashrc', 'home_expansion'],
    ['a\nb', 'control_character'],
  ])('refuses %j (%s)', async (path, reason) => {
    expect(await refusal(path)).toBe(reason);
  });

  it('refuses very long paths and names', async () => {
    expect(await refusal('x/'.repeat(2100))).toBe('too_long');
    expect(await refusal('n'.repeat(300))).toBe('too_long');
  });

  it('refuses non-string paths', async () => {
    expect(await refusal(42)).toBe('not_a_string');
  });

  it('refuses a root prefix that is not the root (root-evil)', async () => {
    mkdirSync(`${fixture.root}-evil`);
    expect(await refusal(`${fixture.root}-evil/x`)).toBe('absolute_outside');
    expect(await refusal(`../root-evil/x`)).toBe('parent_traversal');
  });

  it('refuses symlinks leading out of the root, anywhere in the path', async () => {
    symlinkSync('/etc', join(fixture.root, 'etc-link'));
    symlinkSync(join(fixture.outside, 'secret.txt'), join(fixture.root, 'secret-link'));
    mkdirSync(join(fixture.root, 'chain'));
    symlinkSync(fixture.outside, join(fixture.root, 'chain', 'hop1'));
    symlinkSync('chain/hop1', join(fixture.root, 'hop2'));
    expect(await refusal('etc-link/passwd')).toBe('symlink_escape');
    expect(await refusal('etc-link')).toBe('symlink_escape');
    expect(await refusal('secret-link')).toBe('symlink_escape');
    expect(await refusal('hop2/secret.txt')).toBe('symlink_escape');
    // A file that does not exist yet below a link out: the nearest existing parent is checked.
    expect(await refusal('hop2/new-file.txt')).toBe('symlink_escape');
    expect(await refusal('etc-link/new/deep/file')).toBe('symlink_escape');
  });

  it('refuses dangling and looping symlinks (a write would create the target outside)', async () => {
    symlinkSync(join(fixture.outside, 'not-yet.txt'), join(fixture.root, 'dangling'));
    symlinkSync('loop-b', join(fixture.root, 'loop-a'));
    symlinkSync('loop-a', join(fixture.root, 'loop-b'));
    expect(await refusal('dangling')).toBe('dangling_symlink');
    expect(await refusal('dangling/child')).toBe('dangling_symlink');
    expect(await refusal('loop-a')).toBe('dangling_symlink');
  });

  it('follows symlinks that stay inside, but resolveForWrite refuses a link as the last component', async () => {
    fixture.write('real/file.txt', 'x');
    symlinkSync('real', join(fixture.root, 'alias'));
    symlinkSync('real/file.txt', join(fixture.root, 'file-alias'));
    expect((await workspace.resolve('alias/file.txt')).relative).toBe('real/file.txt');
    expect((await workspace.resolve('file-alias')).relative).toBe('real/file.txt');
    expect((await workspace.resolveForWrite('alias/file.txt')).relative).toBe('real/file.txt');
    expect(await refusal('file-alias', true)).toBe('symlink_write');
    expect(await refusal('.', true)).toBe('is_root');
  });

  it('works when the root itself is reached through a symlink', async () => {
    const linkedRoot = join(fixture.base, 'root-link');
    symlinkSync(fixture.root, linkedRoot);
    fixture.write('a.txt', 'x');
    // The options parser realpaths the root; a root given as a link must still confine.
    const { parseWorkspaceOptions } = await import('./workspace-options.js');
    const linked = new WorkspaceRoot(parseWorkspaceOptions({ root: linkedRoot }).root);
    expect((await linked.resolve('a.txt')).absolute).toBe(join(fixture.root, 'a.txt'));
    await expect(linked.resolve('../outside/secret.txt')).rejects.toBeInstanceOf(PathOutsideWorkspaceError);
  });
});
