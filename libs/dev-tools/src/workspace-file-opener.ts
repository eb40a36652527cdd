import { constants, type Stats } from 'node:fs';
import { open, readlink, type FileHandle } from 'node:fs/promises';
import { PATH_REFUSAL_REASONS, PathOutsideWorkspaceError } from './path-outside-workspace-error.js';
import { WorkspaceEntryNotFoundError } from './workspace-entry-not-found-error.js';
import { WorkspaceEntryTypeError } from './workspace-entry-type-error.js';
import type { WorkspaceRoot } from './workspace-root.js';

/** An open regular file with its stats. */
export interface OpenedFile {
  handle: FileHandle;
  stats: Stats;
}

// O_NOFOLLOW: if the checked path was swapped for a symlink since it was resolved, open fails.
// O_NONBLOCK: a FIFO planted in the workspace cannot block the open.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Opens an already resolved absolute path for reading, refusing anything but a regular file.
 * After opening, the path the kernel actually opened is checked against the root, which closes
 * the window in which a directory of the path could have been swapped for a link out.
 */
export async function openRegularFile(
  workspace: WorkspaceRoot,
  absolute: string,
  relative: string,
): Promise<OpenedFile> {
  let handle: FileHandle;
  try {
    handle = await open(absolute, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new WorkspaceEntryNotFoundError(relative);
    if (code === 'ELOOP') throw new WorkspaceEntryTypeError(relative, 'file', 'symlink');
    throw error;
  }
  await assertOpenedInside(workspace, handle, relative);
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new WorkspaceEntryTypeError(relative, 'file', stats.isDirectory() ? 'directory' : 'special file');
  }
  return { handle, stats };
}

/**
 * Refuses an open file whose real location (as the kernel reports it in /proc/self/fd) lies
 * outside the root. Where /proc is not mounted the check is skipped.
 */
export async function assertOpenedInside(
  workspace: WorkspaceRoot,
  handle: FileHandle,
  relative: string,
): Promise<void> {
  const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  if (opened === undefined || workspace.contains(opened.replace(/ \(deleted\)$/, ''))) return;
  await handle.close();
  throw new PathOutsideWorkspaceError(relative, PATH_REFUSAL_REASONS.SYMLINK_ESCAPE);
}
