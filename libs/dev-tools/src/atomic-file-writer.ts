import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PATH_REFUSAL_REASONS, PathOutsideWorkspaceError } from './path-outside-workspace-error.js';
import { WorkspaceEntryTypeError } from './workspace-entry-type-error.js';
import { assertOpenedInside } from './workspace-file-opener.js';
import type { WorkspaceRoot } from './workspace-root.js';

/** A file written to a temporary name next to its target, flushed, waiting to be renamed into place. */
export interface StagedFile {
  target: string;
  temp: string;
}

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Writes `content` to a fresh temporary file in the target's directory (O_EXCL | O_NOFOLLOW, so
 * nothing pre-placed there is followed) and fsyncs it. The target is untouched until `commit`.
 */
export async function stageFile(
  workspace: WorkspaceRoot,
  target: string,
  content: string | Uint8Array,
): Promise<StagedFile> {
  const temp = join(
    dirname(target),
    `.${basename(target).slice(0, 200)}.talon-${randomBytes(6).toString('hex')}.tmp`,
  );
  const mode = await existingMode(target);
  const handle = await open(temp, TEMP_FLAGS, mode);
  try {
    await assertOpenedInside(workspace, handle, workspace.relativeOf(target));
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  try {
    await handle.writeFile(content);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  return { target, temp };
}

/**
 * Renames a staged file into place. The parent directory is re-checked first: if it was swapped
 * for a link out of the root since it was resolved, the rename is refused. rename(2) itself never
 * follows a symlink at the target name; it replaces the link.
 */
export async function commitStagedFile(workspace: WorkspaceRoot, staged: StagedFile): Promise<void> {
  const parent = dirname(staged.target);
  if ((await realpath(parent)) !== parent || !workspace.contains(parent)) {
    await discardStagedFile(staged);
    throw new PathOutsideWorkspaceError(
      workspace.relativeOf(staged.target),
      PATH_REFUSAL_REASONS.SYMLINK_ESCAPE,
    );
  }
  await rename(staged.temp, staged.target);
  await syncDirectory(parent);
}

/** Removes a staged file that will not be committed. Never throws. */
export async function discardStagedFile(staged: StagedFile): Promise<void> {
  await unlink(staged.temp).catch(() => undefined);
}

/** Stages and commits in one step; the temporary file is removed if anything fails. */
export async function writeFileAtomically(
  workspace: WorkspaceRoot,
  target: string,
  content: string | Uint8Array,
): Promise<void> {
  const staged = await stageFile(workspace, target, content);
  try {
    await commitStagedFile(workspace, staged);
  } catch (error) {
    await discardStagedFile(staged);
    throw error;
  }
}

/**
 * Creates the missing directories of `directory` one level at a time (never `recursive`), checking
 * after each step that what exists is a real directory inside the root and not a link.
 */
export async function createDirectoriesInside(workspace: WorkspaceRoot, directory: string): Promise<void> {
  if (!workspace.contains(directory))
    throw new PathOutsideWorkspaceError(directory, PATH_REFUSAL_REASONS.PARENT_TRAVERSAL);
  const missing: string[] = [];
  let current = directory;
  while (current !== workspace.root) {
    try {
      await lstat(current);
      break;
    } catch {
      missing.unshift(current);
      current = dirname(current);
    }
  }
  for (const path of missing) {
    try {
      await mkdir(path, 0o755);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR')
        throw new WorkspaceEntryTypeError(workspace.relativeOf(dirname(path)), 'directory', 'file');
      if (code !== 'EEXIST') throw error;
    }
    const stats = await lstat(path);
    if (!stats.isDirectory() || (await realpath(path)) !== path) {
      throw new PathOutsideWorkspaceError(workspace.relativeOf(path), PATH_REFUSAL_REASONS.SYMLINK_ESCAPE);
    }
  }
}

async function existingMode(target: string): Promise<number> {
  try {
    return (await lstat(target)).mode & 0o777;
  } catch {
    return 0o644;
  }
}

async function syncDirectory(directory: string): Promise<void> {
  // Makes the rename durable; not every file system supports fsync on a directory.
  const handle = await open(directory, constants.O_RDONLY | constants.O_DIRECTORY).catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close().catch(() => undefined);
}
