import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PATH_REFUSAL_REASONS, PathOutsideWorkspaceError } from './path-outside-workspace-error.js';

/** Longest user path accepted, in characters (Linux PATH_MAX is 4096). */
export const MAX_WORKSPACE_PATH_LENGTH = 4096;
/** Longest single path component accepted (Linux NAME_MAX). */
export const MAX_WORKSPACE_NAME_LENGTH = 255;

/** A user path resolved inside the workspace. */
export interface WorkspacePath {
  /** Absolute path with every existing symlink resolved; safe to hand to fs calls. */
  absolute: string;
  /** Path relative to the root, with `/` separators (`.` for the root itself). */
  relative: string;
  /** Whether something existed at the path when it was resolved. */
  exists: boolean;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0001-\u001f\u007f]/;

/**
 * Confines paths to one directory. Every path goes through `resolve`: lexical checks first (NUL,
 * `..`, absolute, `~`, Windows forms), then realpath on the path or, for a path that does not exist
 * yet, on its nearest existing ancestor, so a symlink anywhere in the chain cannot lead out.
 */
export class WorkspaceRoot {
  /** @param root an absolute, already real path (see `parseWorkspaceOptions`). */
  constructor(readonly root: string) {}

  /** Whether an absolute, normalised path is the root or below it. */
  contains(absolute: string): boolean {
    return (
      absolute === this.root || absolute.startsWith(this.root.endsWith(sep) ? this.root : this.root + sep)
    );
  }

  /** Relative form of an absolute path inside the root, with `/` separators. */
  relativeOf(absolute: string): string {
    const rel = relative(this.root, absolute);
    return rel === '' ? '.' : rel.split(sep).join('/');
  }

  /**
   * Resolves a user path. Throws {@link PathOutsideWorkspaceError} when it is malformed or leads
   * outside the root, lexically or through a symlink.
   */
  async resolve(userPath: unknown): Promise<WorkspacePath> {
    const lexical = this.resolveLexically(userPath);
    const path = userPath as string;
    try {
      const real = await realpath(lexical);
      if (!this.contains(real))
        throw new PathOutsideWorkspaceError(path, PATH_REFUSAL_REASONS.SYMLINK_ESCAPE);
      return { absolute: real, relative: this.relativeOf(real), exists: true };
    } catch (error) {
      if (error instanceof PathOutsideWorkspaceError) throw error;
      if ((error as NodeJS.ErrnoException).code === 'ELOOP')
        throw new PathOutsideWorkspaceError(path, PATH_REFUSAL_REASONS.DANGLING_SYMLINK, error);
      if (!isMissing(error)) throw error;
    }
    // The path does not exist (or ends in a dangling link): find the nearest existing ancestor.
    const pending: string[] = [];
    let current = lexical;
    for (;;) {
      if (await isSymlink(current))
        throw new PathOutsideWorkspaceError(path, PATH_REFUSAL_REASONS.DANGLING_SYMLINK);
      pending.unshift(basename(current));
      current = dirname(current);
      try {
        const real = await realpath(current);
        if (!this.contains(real))
          throw new PathOutsideWorkspaceError(path, PATH_REFUSAL_REASONS.SYMLINK_ESCAPE);
        const absolute = join(real, ...pending);
        return { absolute, relative: this.relativeOf(absolute), exists: false };
      } catch (error) {
        if (error instanceof PathOutsideWorkspaceError) throw error;
        if (!isMissing(error)) throw error;
      }
      // The root exists, so the walk ends at the latest there.
      if (!this.contains(current))
        throw new PathOutsideWorkspaceError(path, PATH_REFUSAL_REASONS.PARENT_TRAVERSAL);
    }
  }

  /**
   * Resolves a path that is about to be written or deleted: like `resolve`, and also refuses a
   * symlink as the last component, so a write never goes through a link (even one inside the root).
   */
  async resolveForWrite(userPath: unknown): Promise<WorkspacePath> {
    const lexical = this.resolveLexically(userPath);
    if (lexical === this.root)
      throw new PathOutsideWorkspaceError(userPath as string, PATH_REFUSAL_REASONS.IS_ROOT);
    if (await isSymlink(lexical))
      throw new PathOutsideWorkspaceError(userPath as string, PATH_REFUSAL_REASONS.SYMLINK_WRITE);
    return this.resolve(userPath);
  }

  /** The lexical checks alone: returns the normalised absolute path, symlinks not yet resolved. */
  resolveLexically(userPath: unknown): string {
    if (typeof userPath !== 'string')
      throw new PathOutsideWorkspaceError(String(userPath), PATH_REFUSAL_REASONS.NOT_A_STRING);
    const refuse = (reason: Parameters<typeof newRefusal>[1]) => newRefusal(userPath, reason);
    if (userPath.length === 0) throw refuse(PATH_REFUSAL_REASONS.EMPTY);
    if (userPath.includes('\0')) throw refuse(PATH_REFUSAL_REASONS.NUL_BYTE);
    if (CONTROL_CHARACTERS.test(userPath)) throw refuse(PATH_REFUSAL_REASONS.CONTROL_CHARACTER);
    if (
      userPath.length > MAX_WORKSPACE_PATH_LENGTH ||
      userPath.split('/').some((name) => Buffer.byteLength(name) > MAX_WORKSPACE_NAME_LENGTH)
    ) {
      throw refuse(PATH_REFUSAL_REASONS.TOO_LONG);
    }
    // A backslash is a legal file-name byte on Linux but a separator to people and to Windows tools.
    if (userPath.includes('\\')) throw refuse(PATH_REFUSAL_REASONS.BACKSLASH);
    if (/^[a-zA-Z]:/.test(userPath)) throw refuse(PATH_REFUSAL_REASONS.WINDOWS_DRIVE);
    if (userPath.startsWith('~')) throw refuse(PATH_REFUSAL_REASONS.HOME_EXPANSION);
    // Percent-encoding is not decoded: `%2e%2e` is a literal file name, as the kernel sees it.
    const absolute = resolve(this.root, userPath);
    if (!this.contains(absolute)) {
      throw refuse(
        isAbsolute(userPath) ? PATH_REFUSAL_REASONS.ABSOLUTE_OUTSIDE : PATH_REFUSAL_REASONS.PARENT_TRAVERSAL,
      );
    }
    return absolute;
  }
}

function newRefusal(
  path: string,
  reason: ConstructorParameters<typeof PathOutsideWorkspaceError>[1],
): PathOutsideWorkspaceError {
  return new PathOutsideWorkspaceError(path, reason);
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
