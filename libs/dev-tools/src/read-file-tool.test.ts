import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspaceFixture, type WorkspaceFixture } from '../test/workspace-fixture.js';
import { InvalidToolParamsError } from './invalid-tool-params-error.js';
import { createReadFileTool } from './read-file-tool.js';
import { WorkspaceEntryNotFoundError } from './workspace-entry-not-found-error.js';
import { WorkspaceEntryTypeError } from './workspace-entry-type-error.js';

let fixture: WorkspaceFixture;

beforeEach(() => {
  fixture = createWorkspaceFixture();
});
afterEach(() => fixture.cleanup());

describe('read_file', () => {
  it('reads a whole text file', async () => {
    fixture.write('a.txt', 'one\ntwo\nthree\n');
    const tool = createReadFileTool({ root: fixture.root });
    expect(await tool.execute({ path: 'a.txt' }, fixture.context)).toEqual({
      path: 'a.txt',
      content: 'one\ntwo\nthree\n',
      totalBytes: 14,
      binary: false,
      truncated: false,
    });
  });

  it('reads a line range, 1-based and inclusive, with CRLF lines', async () => {
    fixture.write('lines.txt', Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\r\n'));
    const tool = createReadFileTool({ root: fixture.root });
    expect(
      await tool.execute({ path: 'lines.txt', startLine: 10, endLine: 12 }, fixture.context),
    ).toMatchObject({
      content: 'line 10\nline 11\nline 12',
      startLine: 10,
      endLine: 12,
      truncated: false,
    });
    expect(await tool.execute({ path: 'lines.txt', startLine: 99 }, fixture.context)).toMatchObject({
      content: 'line 99\nline 100',
      endLine: 100,
    });
    expect(await tool.execute({ path: 'lines.txt', endLine: 1 }, fixture.context)).toMatchObject({
      content: 'line 1',
    });
  });

  it('refuses an inverted line range', async () => {
    fixture.write('a.txt', 'x');
    const tool = createReadFileTool({ root: fixture.root });
    await expect(
      tool.execute({ path: 'a.txt', startLine: 5, endLine: 2 }, fixture.context),
    ).rejects.toBeInstanceOf(InvalidToolParamsError);
  });

  it('truncates at the byte cap and says so', async () => {
    fixture.write('big.txt', 'x'.repeat(5000));
    const tool = createReadFileTool({ root: fixture.root, caps: { maxReadBytes: 1024 } });
    const result = await tool.execute({ path: 'big.txt' }, fixture.context);
    expect(result).toMatchObject({ truncated: true, totalBytes: 5000 });
    expect(result.content).toHaveLength(1024);
    const smaller = await tool.execute({ path: 'big.txt', maxBytes: 10 }, fixture.context);
    expect(smaller.content).toBe('x'.repeat(10));
  });

  it('truncates a line range at the byte cap', async () => {
    fixture.write('lines.txt', Array.from({ length: 1000 }, () => 'abcdefghi').join('\n'));
    const tool = createReadFileTool({ root: fixture.root });
    const result = await tool.execute(
      { path: 'lines.txt', startLine: 1, endLine: 1000, maxBytes: 100 },
      fixture.context,
    );
    expect(result).toMatchObject({ truncated: true, startLine: 1, endLine: 10 });
  });

  it('does not cut a multi-byte character in half at the cap', async () => {
    fixture.write('utf8.txt', 'é'.repeat(10));
    const tool = createReadFileTool({ root: fixture.root });
    const result = await tool.execute({ path: 'utf8.txt', maxBytes: 5 }, fixture.context);
    expect(result.content).toBe('éé');
  });

  it('reports binary files instead of returning them', async () => {
    writeFileSync(join(fixture.root, 'blob.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02]));
    writeFileSync(join(fixture.root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x61]));
    const tool = createReadFileTool({ root: fixture.root });
    expect(await tool.execute({ path: 'blob.bin' }, fixture.context)).toMatchObject({
      binary: true,
      content: '',
      totalBytes: 7,
    });
    expect(await tool.execute({ path: 'latin1.txt' }, fixture.context)).toMatchObject({ binary: true });
  });

  it('reads an empty file', async () => {
    fixture.write('empty.txt', '');
    const tool = createReadFileTool({ root: fixture.root });
    expect(await tool.execute({ path: 'empty.txt' }, fixture.context)).toMatchObject({
      content: '',
      binary: false,
      totalBytes: 0,
    });
  });

  it('gives typed errors for missing files, directories and FIFOs', async () => {
    mkdirSync(join(fixture.root, 'dir'));
    execFileSync('mkfifo', [join(fixture.root, 'pipe')]);
    const tool = createReadFileTool({ root: fixture.root });
    await expect(tool.execute({ path: 'missing.txt' }, fixture.context)).rejects.toBeInstanceOf(
      WorkspaceEntryNotFoundError,
    );
    await expect(tool.execute({ path: 'dir' }, fixture.context)).rejects.toBeInstanceOf(
      WorkspaceEntryTypeError,
    );
    await expect(tool.execute({ path: 'pipe' }, fixture.context)).rejects.toBeInstanceOf(
      WorkspaceEntryTypeError,
    );
  });

  it('refuses params of the wrong type', async () => {
    const tool = createReadFileTool({ root: fixture.root });
    await expect(tool.execute({ path: 3 } as never, fixture.context)).rejects.toBeInstanceOf(
      InvalidToolParamsError,
    );
    await expect(
      tool.execute({ path: 'a', maxBytes: 10 * 1024 * 1024 }, fixture.context),
    ).rejects.toBeInstanceOf(InvalidToolParamsError);
  });
});
