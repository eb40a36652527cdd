import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspaceFixture, type WorkspaceFixture } from '../test/workspace-fixture.js';
import { PathOutsideWorkspaceError } from './path-outside-workspace-error.js';
import { openRegularFile } from './workspace-file-opener.js';
import { WorkspaceRoot } from './workspace-root.js';

let fixture: WorkspaceFixture;

beforeEach(() => {
  fixture = createWorkspaceFixture();
});
afterEach(() => fixture.cleanup());

describe('openRegularFile', () => {
  it('opens a regular file inside the root', async () => {
    fixture.write('a.txt', 'x');
    const { handle, stats } = await openRegularFile(
      new WorkspaceRoot(fixture.root),
      join(fixture.root, 'a.txt'),
      'a.txt',
    );
    expect(stats.size).toBe(1);
    await handle.close();
  });

  it('refuses a file that turns out to live outside once opened (directory swapped after resolution)', async () => {
    const workspace = new WorkspaceRoot(fixture.root);
    mkdirSync(join(fixture.root, 'dir'));
    fixture.write('dir/secret.txt', 'inside');
    const resolved = await workspace.resolve('dir/secret.txt');
    // The race: between resolve and open, the directory becomes a link to the outside.
    renameSync(join(fixture.root, 'dir'), join(fixture.root, 'moved'));
    symlinkSync(fixture.outside, join(fixture.root, 'dir'));
    await expect(openRegularFile(workspace, resolved.absolute, resolved.relative)).rejects.toBeInstanceOf(
      PathOutsideWorkspaceError,
    );
  });

  it('refuses a last component swapped for a symlink (O_NOFOLLOW)', async () => {
    const workspace = new WorkspaceRoot(fixture.root);
    fixture.write('a.txt', 'x');
    const resolved = await workspace.resolve('a.txt');
    renameSync(join(fixture.root, 'a.txt'), join(fixture.root, 'b.txt'));
    symlinkSync(join(fixture.outside, 'secret.txt'), join(fixture.root, 'a.txt'));
    await expect(openRegularFile(workspace, resolved.absolute, resolved.relative)).rejects.toMatchObject({
      code: 'TOOL_FAILED',
    });
  });
});
