import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createWorkspaceFixture, type WorkspaceFixture } from '../test/workspace-fixture.js';
import { createApplyPatchTool } from './apply-patch-tool.js';
import { PatchRejectedError } from './patch-rejected-error.js';
import { WorkspaceLimitExceededError } from './workspace-limit-exceeded-error.js';

let fixture: WorkspaceFixture;

const LINES = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
const ORIGINAL_A = LINES.join('\n') + '\n';
const ORIGINAL_B = 'alpha\nbeta\ngamma\n';

beforeEach(() => {
  fixture = createWorkspaceFixture();
  fixture.write('src/a.txt', ORIGINAL_A);
  fixture.write('src/b.txt', ORIGINAL_B);
  fixture.write('old.txt', 'remove me\nand me\n');
});
afterEach(() => fixture.cleanup());

/** A snapshot of every entry in the workspace, to prove nothing changed. */
function snapshot(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(fixture.root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    files[relative(fixture.root, path)] = entry.isFile() ? readFileSync(path, 'utf8') : '<dir>';
  }
  return files;
}

const MULTI_FILE_PATCH = [
  '--- a/src/a.txt',
  '+++ b/src/a.txt',
  '@@ -2,3 +2,3 @@',
  ' line 2',
  '-line 3',
  '+line three',
  ' line 4',
  '@@ -20,3 +20,4 @@',
  ' line 20',
  ' line 21',
  '+inserted after 21',
  ' line 22',
  '--- a/src/b.txt',
  '+++ b/src/b.txt',
  '@@ -1,3 +1,3 @@',
  ' alpha',
  '-beta',
  '+BETA',
  ' gamma',
  '--- /dev/null',
  '+++ b/src/new/created.txt',
  '@@ -0,0 +1,2 @@',
  '+hello',
  '+world',
  '--- a/old.txt',
  '+++ /dev/null',
  '@@ -1,2 +0,0 @@',
  '-remove me',
  '-and me',
  '',
].join('\n');

describe('apply_patch', () => {
  it('applies a multi-file patch with modification, creation and deletion', async () => {
    const tool = createApplyPatchTool({ root: fixture.root });
    const result = await tool.execute({ patch: MULTI_FILE_PATCH }, fixture.context);
    expect(result.files).toEqual([
      { path: 'src/a.txt', operation: 'modify', hunks: 2 },
      { path: 'src/b.txt', operation: 'modify', hunks: 1 },
      { path: 'src/new/created.txt', operation: 'create', hunks: 1 },
      { path: 'old.txt', operation: 'delete', hunks: 1 },
    ]);
    const a = readFileSync(join(fixture.root, 'src/a.txt'), 'utf8').split('\n');
    expect(a[2]).toBe('line three');
    expect(a[21]).toBe('inserted after 21');
    expect(readFileSync(join(fixture.root, 'src/b.txt'), 'utf8')).toBe('alpha\nBETA\ngamma\n');
    expect(readFileSync(join(fixture.root, 'src/new/created.txt'), 'utf8')).toBe('hello\nworld\n');
    expect(existsSync(join(fixture.root, 'old.txt'))).toBe(false);
    expect(readdirSync(join(fixture.root, 'src'))).toEqual(['a.txt', 'b.txt', 'new']);
  });

  it('rejects the whole patch when one hunk of a later file fails, naming file and hunk, writing nothing', async () => {
    const before = snapshot();
    const broken = MULTI_FILE_PATCH.replace(' alpha\n-beta\n+BETA', ' alpha\n-not beta\n+BETA');
    const tool = createApplyPatchTool({ root: fixture.root });
    const error = await tool.execute({ patch: broken }, fixture.context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PatchRejectedError);
    expect((error as PatchRejectedError).details).toEqual({
      reason: 'hunk_mismatch',
      file: 'src/b.txt',
      hunk: 1,
      header: '@@ -1,3 +1,3 @@',
    });
    expect((error as PatchRejectedError).message).toContain('src/b.txt');
    expect(snapshot()).toEqual(before);
  });

  it('names the second hunk when only it fails', async () => {
    const before = snapshot();
    const broken = MULTI_FILE_PATCH.replace(' line 21\n+inserted', ' line 21 changed\n+inserted');
    const tool = createApplyPatchTool({ root: fixture.root });
    const error = await tool.execute({ patch: broken }, fixture.context).catch((caught: unknown) => caught);
    expect((error as PatchRejectedError).details).toMatchObject({
      file: 'src/a.txt',
      hunk: 2,
      header: '@@ -20,3 +20,4 @@',
    });
    expect(snapshot()).toEqual(before);
  });

  it('refuses to create a file that exists and to change one that does not', async () => {
    const tool = createApplyPatchTool({ root: fixture.root });
    const create = '--- /dev/null\n+++ b/src/b.txt\n@@ -0,0 +1 @@\n+x\n';
    await expect(tool.execute({ patch: create }, fixture.context)).rejects.toMatchObject({
      details: { reason: 'file_exists', file: 'src/b.txt' },
    });
    const modify = '--- a/nope.txt\n+++ b/nope.txt\n@@ -1 +1 @@\n-a\n+b\n';
    await expect(tool.execute({ patch: modify }, fixture.context)).rejects.toMatchObject({
      details: { reason: 'file_missing', file: 'nope.txt' },
    });
  });

  it('refuses a deletion that does not remove every line', async () => {
    const tool = createApplyPatchTool({ root: fixture.root });
    const partial = '--- a/old.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-remove me\n';
    await expect(tool.execute({ patch: partial }, fixture.context)).rejects.toBeInstanceOf(
      PatchRejectedError,
    );
    expect(readFileSync(join(fixture.root, 'old.txt'), 'utf8')).toBe('remove me\nand me\n');
  });

  it('applies a real `git diff` of several files, including a rename', async () => {
    const before = join(fixture.base, 'before');
    const after = join(fixture.base, 'after');
    cpSync(fixture.root, before, { recursive: true });
    cpSync(fixture.root, after, { recursive: true });
    writeFileSync(join(after, 'src/a.txt'), ORIGINAL_A.replace('line 15\n', 'line fifteen\n'));
    writeFileSync(join(after, 'renamed.txt'), 'remove me\nand me, renamed\n');
    execFileSync('rm', [join(after, 'old.txt')]);
    mkdirSync(join(after, 'docs'));
    writeFileSync(join(after, 'docs/readme.md'), '# Hi\n');
    let patch = '';
    try {
      execFileSync('git', ['diff', '--no-index', '--no-renames', 'before', 'after'], {
        cwd: fixture.base,
        encoding: 'utf8',
      });
    } catch (error) {
      patch = (error as { stdout: string }).stdout; // exit code 1: differences found
    }
    // git --no-index prefixes paths with the directory names: make them workspace-relative.
    patch = patch.replaceAll('a/before/', 'a/').replaceAll('b/after/', 'b/');
    const tool = createApplyPatchTool({ root: fixture.root });
    const result = await tool.execute({ patch }, fixture.context);
    expect(result.files.map((file) => `${file.operation}:${file.path}`).sort()).toEqual([
      'create:docs/readme.md',
      'create:renamed.txt',
      'delete:old.txt',
      'modify:src/a.txt',
    ]);
    for (const name of ['src/a.txt', 'src/b.txt', 'renamed.txt', 'docs/readme.md']) {
      expect(readFileSync(join(fixture.root, name), 'utf8')).toBe(readFileSync(join(after, name), 'utf8'));
    }
    expect(existsSync(join(fixture.root, 'old.txt'))).toBe(false);
  });

  it('handles a git rename with changes (old name removed, new name written)', async () => {
    const tool = createApplyPatchTool({ root: fixture.root });
    const patch = [
      'diff --git a/src/b.txt b/src/c.txt',
      'similarity index 80%',
      'rename from src/b.txt',
      'rename to src/c.txt',
      '--- a/src/b.txt',
      '+++ b/src/c.txt',
      '@@ -1,3 +1,3 @@',
      ' alpha',
      '-beta',
      '+bravo',
      ' gamma',
      'diff --git a/old.txt b/moved/old.txt',
      'similarity index 100%',
      'rename from old.txt',
      'rename to moved/old.txt',
      'diff --git a/empty.txt b/empty.txt',
      'new file mode 100644',
      'index 0000000..e69de29',
      '',
    ].join('\n');
    expect((await tool.execute({ patch }, fixture.context)).files).toEqual([
      { path: 'src/c.txt', operation: 'rename', hunks: 1 },
      { path: 'moved/old.txt', operation: 'rename', hunks: 0 },
      { path: 'empty.txt', operation: 'create', hunks: 0 },
    ]);
    expect(existsSync(join(fixture.root, 'src/b.txt'))).toBe(false);
    expect(existsSync(join(fixture.root, 'old.txt'))).toBe(false);
    expect(readFileSync(join(fixture.root, 'src/c.txt'), 'utf8')).toBe('alpha\nbravo\ngamma\n');
    expect(readFileSync(join(fixture.root, 'moved/old.txt'), 'utf8')).toBe('remove me\nand me\n');
    expect(readFileSync(join(fixture.root, 'empty.txt'), 'utf8')).toBe('');
  });

  it('applies a plain `diff -u x.orig x` to the file that exists, like patch(1)', async () => {
    const tool = createApplyPatchTool({ root: fixture.root });
    const patch =
      '--- src/b.txt.orig\t2026-01-01 00:00:00\n+++ src/b.txt\t2026-01-01 00:00:01\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+bravo\n gamma\n';
    expect((await tool.execute({ patch }, fixture.context)).files).toEqual([
      { path: 'src/b.txt', operation: 'modify', hunks: 1 },
    ]);
    expect(readFileSync(join(fixture.root, 'src/b.txt'), 'utf8')).toBe('alpha\nbravo\ngamma\n');
  });

  it('applies two sections on the same file in order', async () => {
    const tool = createApplyPatchTool({ root: fixture.root });
    const patch =
      '--- a/src/b.txt\n+++ b/src/b.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+b2\n gamma\n--- a/src/b.txt\n+++ b/src/b.txt\n@@ -1,3 +1,3 @@\n alpha\n-b2\n+b3\n gamma\n';
    await tool.execute({ patch }, fixture.context);
    expect(readFileSync(join(fixture.root, 'src/b.txt'), 'utf8')).toBe('alpha\nb3\ngamma\n');
  });

  it('rejects text that is not a patch, and patches above the cap', async () => {
    const tool = createApplyPatchTool({ root: fixture.root, caps: { maxPatchBytes: 100 } });
    await expect(tool.execute({ patch: 'hello, this is not a diff' }, fixture.context)).rejects.toMatchObject(
      { details: { reason: 'no_files' } },
    );
    await expect(tool.execute({ patch: '@@ -1 +1 @@\n-a\n+b\n' }, fixture.context)).rejects.toMatchObject({
      details: { reason: 'malformed' },
    });
    await expect(tool.execute({ patch: MULTI_FILE_PATCH }, fixture.context)).rejects.toBeInstanceOf(
      WorkspaceLimitExceededError,
    );
  });

  it('refuses to patch a binary file', async () => {
    writeFileSync(join(fixture.root, 'blob.bin'), Buffer.from([0, 1, 2, 10]));
    const tool = createApplyPatchTool({ root: fixture.root });
    const patch = '--- a/blob.bin\n+++ b/blob.bin\n@@ -1 +1 @@\n-x\n+y\n';
    await expect(tool.execute({ patch }, fixture.context)).rejects.toMatchObject({
      details: { reason: 'not_a_text_file' },
    });
  });

  it('leaves no temporary file behind after success or failure', async () => {
    const tool = createApplyPatchTool({ root: fixture.root });
    await tool.execute({ patch: MULTI_FILE_PATCH }, fixture.context);
    await tool.execute({ patch: MULTI_FILE_PATCH }, fixture.context).catch(() => undefined);
    expect(
      readdirSync(fixture.root, { recursive: true })
        .map(String)
        .filter((name) => name.includes('.talon-')),
    ).toEqual([]);
  });
});
