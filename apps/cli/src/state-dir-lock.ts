import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

/** Thrown when another live `talon up` holds the state directory. */
export class StateDirLockedError extends Error {
  readonly code = 'STATE_DIR_LOCKED';
  constructor(
    readonly stateDir: string,
    readonly pid: number,
  ) {
    super(
      `Another Talon (pid ${pid}) is running on ${stateDir}: use that one (pnpm talon status), stop it (Ctrl-C in its terminal), or set TALON_STATE_DIR to another directory.`,
    );
  }
}

/** The lock file `talon up` holds while it runs. */
export function stateDirLockPath(stateDir: string): string {
  return join(stateDir, 'talon-up.pid');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the state directory for this process (a pid file created exclusively), so a second `talon up`
 * on the same directory refuses before it starts anything. A lock left by a process that died is taken
 * over. Returns the release function; throws {@link StateDirLockedError} when a live process holds it.
 */
export function lockStateDir(stateDir: string, pid: number = process.pid): () => void {
  const path = stateDirLockPath(stateDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      return () => {
        if (readHolder(path) === pid) rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(path);
      if (holder !== undefined && holder !== pid && isAlive(holder))
        throw new StateDirLockedError(stateDir, holder);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not take ${path}; remove it if no Talon runs on ${stateDir}.`);
}

function readHolder(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
