import { accessSync, constants, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxIdentity } from './sandbox-identity.js';

/** A directory the sandbox user may not search, on the way to a path a sandbox binds. */
export interface UnreachableDirectory {
  directory: string;
  /** The bound path behind it. */
  path: string;
  mode: number;
  ownerUid: number;
}

/**
 * The first directory above `path` (as written, and after resolving symlinks) that the sandbox user
 * cannot enter, or undefined when every one lets it through. bubblewrap runs as that user and opens each
 * bound path itself, so one such parent makes it fail. As root the check reads the mode bits for the
 * sandbox uid and its one gid (setpriv clears the supplementary groups; POSIX ACLs are not consulted);
 * otherwise the sandbox user is this process, and the kernel answers. Parents that do not exist are left
 * to bubblewrap's own message.
 */
export function unreachableParent(path: string, identity: SandboxIdentity): UnreachableDirectory | undefined {
  const candidates = [path];
  try {
    candidates.push(realpathSync(path));
  } catch {
    // A path that does not exist yet: only its written form can be checked.
  }
  for (const candidate of new Set(candidates)) {
    const parents: string[] = [];
    for (let dir = dirname(candidate); ; dir = dirname(dir)) {
      parents.unshift(dir);
      if (dir === dirname(dir)) break;
    }
    for (const directory of parents) {
      let stat: Stats;
      try {
        stat = statSync(directory);
      } catch {
        break;
      }
      if (!maySearch(directory, stat, identity))
        return { directory, path, mode: stat.mode & 0o7777, ownerUid: stat.uid };
    }
  }
  return undefined;
}

function maySearch(directory: string, stat: Stats, identity: SandboxIdentity): boolean {
  if (!identity.dropFromRoot) {
    try {
      accessSync(directory, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }
  if (stat.uid === identity.uid) return (stat.mode & 0o100) !== 0;
  if (stat.gid === identity.gid) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}
