import { opendir } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceRoot } from './workspace-root.js';

/** Kinds of entry, as lstat sees them (a symlink is never followed). */
export type WorkspaceEntryType = 'file' | 'directory' | 'symlink' | 'other';

/** One entry met on a walk. */
export interface WalkedEntry {
  absolute: string;
  /** Relative to the workspace root, with `/` separators. */
  relative: string;
  name: string;
  type: WorkspaceEntryType;
  /** 1 for the children of the start directory. */
  depth: number;
}

/** Bounds of a walk. */
export interface WalkLimits {
  maxDepth: number;
  /** Stop after visiting this many entries (the walk reports that it stopped early). */
  maxEntries: number;
  /** Directory names not descended into (they are still yielded). */
  skipDirectories?: readonly string[];
}

/**
 * Depth-first walk of a directory inside the workspace, entries sorted by name. Symlinks are
 * yielded as symlinks and never descended into, so the walk cannot leave the root.
 */
export class WorkspaceWalker {
  /** Entries visited so far. */
  visited = 0;
  /** Whether the walk stopped at `maxEntries` before seeing everything. */
  stoppedEarly = false;

  constructor(
    private readonly workspace: WorkspaceRoot,
    private readonly limits: WalkLimits,
  ) {}

  async *walk(directory: string, depth = 1): AsyncGenerator<WalkedEntry> {
    if (depth > this.limits.maxDepth) return;
    const dir = await opendir(directory);
    const entries: { name: string; type: WorkspaceEntryType }[] = [];
    for await (const dirent of dir) {
      const type: WorkspaceEntryType = dirent.isSymbolicLink()
        ? 'symlink'
        : dirent.isDirectory()
          ? 'directory'
          : dirent.isFile()
            ? 'file'
            : 'other';
      entries.push({ name: dirent.name, type });
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (this.visited >= this.limits.maxEntries) {
        this.stoppedEarly = true;
        return;
      }
      this.visited += 1;
      const absolute = join(directory, entry.name);
      yield {
        absolute,
        relative: this.workspace.relativeOf(absolute),
        name: entry.name,
        type: entry.type,
        depth,
      };
      if (entry.type === 'directory' && !this.limits.skipDirectories?.includes(entry.name)) {
        yield* this.walk(absolute, depth + 1);
        if (this.stoppedEarly) return;
      }
    }
  }
}
