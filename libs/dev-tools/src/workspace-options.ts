import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { Sandbox } from '@talon/sandbox';

/** Limits every dev tool applies. All fields are optional in {@link WorkspaceOptions}. */
export interface WorkspaceCaps {
  /** Largest slice of a file `read_file` returns, in bytes. Default 1 MiB. */
  maxReadBytes: number;
  /** Largest content `write_file` accepts, in bytes. Default 10 MiB. */
  maxWriteBytes: number;
  /** Largest patch `apply_patch` accepts, in bytes. Default 2 MiB. */
  maxPatchBytes: number;
  /** Most entries `list_dir` returns. Default 1000. */
  maxListEntries: number;
  /** Deepest `list_dir` recursion. Default 8. */
  maxListDepth: number;
  /** Most paths `glob` returns. Default 1000. */
  maxGlobResults: number;
  /** Most directory entries a `glob` or `grep` walk visits before it stops. Default 100000. */
  maxWalkEntries: number;
  /** Most matches `grep` returns. Default 200. */
  maxGrepMatches: number;
  /** Longest `grep` pattern, in characters. Default 1000. */
  maxGrepPatternLength: number;
  /** Files larger than this are skipped by `grep`, in bytes. Default 2 MiB. */
  maxGrepFileBytes: number;
  /** Time `grep` may spend on one file before skipping it, in ms. Default 500. */
  grepFileTimeMs: number;
  /** Time one `grep` call may spend in total, in ms. Default 10000. */
  grepTotalTimeMs: number;
  /** Default `shell` timeout, in ms. Default 30000. */
  shellTimeoutMs: number;
  /** Largest `shell` timeout a caller may ask for, in ms. Default 300000. */
  maxShellTimeoutMs: number;
  /** Bytes kept of each of stdout and stderr. Default 256 KiB. */
  maxShellOutputBytes: number;
  /** Time between SIGTERM and SIGKILL when a shell command is stopped, in ms. Default 500. */
  shellKillGraceMs: number;
}

/** Where the dev tools work and how much they may do. */
export interface WorkspaceOptions {
  /** The workspace root; it must exist and be a directory. Every path is confined to it. */
  root: string;
  caps?: Partial<WorkspaceCaps>;
  /** The sandbox `shell` runs in. Default: {@link Sandbox.fromEnvironment} (bubblewrap, fail closed). */
  sandbox?: Sandbox;
}

/** The defaults of {@link WorkspaceCaps}. */
export const DEFAULT_WORKSPACE_CAPS: Readonly<WorkspaceCaps> = Object.freeze({
  maxReadBytes: 1024 * 1024,
  maxWriteBytes: 10 * 1024 * 1024,
  maxPatchBytes: 2 * 1024 * 1024,
  maxListEntries: 1000,
  maxListDepth: 8,
  maxGlobResults: 1000,
  maxWalkEntries: 100_000,
  maxGrepMatches: 200,
  maxGrepPatternLength: 1000,
  maxGrepFileBytes: 2 * 1024 * 1024,
  grepFileTimeMs: 500,
  grepTotalTimeMs: 10_000,
  shellTimeoutMs: 30_000,
  maxShellTimeoutMs: 300_000,
  maxShellOutputBytes: 256 * 1024,
  shellKillGraceMs: 500,
});

/** Validated options: the root is absolute and real (symlinks resolved), every cap is set. */
export interface ResolvedWorkspaceOptions {
  root: string;
  caps: Readonly<WorkspaceCaps>;
  sandbox: Sandbox;
}

/** Validates the options once, at start; fails with a readable message. */
export function parseWorkspaceOptions(options: WorkspaceOptions): ResolvedWorkspaceOptions {
  const fail = (message: string): never => {
    throw new TalonError(ERROR_CODES.SCHEMA_VIOLATION, `Invalid dev-tools options: ${message}`);
  };
  if (typeof options?.root !== 'string' || !isAbsolute(options.root))
    fail('`root` must be an absolute path.');
  const root = realRootOf(options.root);
  if (!statSync(root).isDirectory()) fail(`root ${options.root} is not a directory.`);
  const caps: WorkspaceCaps = { ...DEFAULT_WORKSPACE_CAPS };
  for (const [key, value] of Object.entries(options.caps ?? {})) {
    if (!(key in DEFAULT_WORKSPACE_CAPS)) fail(`unknown cap \`${key}\`.`);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
      fail(`cap \`${key}\` must be a positive integer.`);
    caps[key as keyof WorkspaceCaps] = value as number;
  }
  return { root, caps: Object.freeze(caps), sandbox: options.sandbox ?? Sandbox.fromEnvironment() };
}

function realRootOf(root: string): string {
  try {
    return realpathSync(root);
  } catch (error) {
    throw new TalonError(
      ERROR_CODES.SCHEMA_VIOLATION,
      `Invalid dev-tools options: root ${root} does not exist; create it first.`,
      { cause: error },
    );
  }
}
