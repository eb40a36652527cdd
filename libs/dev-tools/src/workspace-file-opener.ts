import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { WorkspaceEntryNotFoundError } from './workspace-entry-not-found-error.js';
import { WorkspaceEntryTypeError } from './workspace-entry-type-error.js';

/** An open regular file with its stats. */
export interface OpenedFile {
  handle: FileHandle;
  stats: Stats;
}

// O_NOFOLLOW: if the checked path was swapped for a symlink since it was resolved, open fails.
// O_NONBLOCK: a FIFO planted in the workspace cannot block the open.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Opens an already resolved absolute path for reading, refusing anything but a regular file. */
export async function openRegularFile(absolute: string, relative: string): Promise<OpenedFile> {
  let handle: FileHandle;
  try {
    handle = await open(absolute, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new WorkspaceEntryNotFoundError(relative);
    if (code === 'ELOOP') throw new WorkspaceEntryTypeError(relative, 'file', 'symlink');
    throw error;
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new WorkspaceEntryTypeError(relative, 'file', stats.isDirectory() ? 'directory' : 'special file');
  }
  return { handle, stats };
}
