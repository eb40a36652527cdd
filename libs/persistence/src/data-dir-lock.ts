import { open, readFile, unlink } from 'node:fs/promises';
import { DataDirInUseError } from './errors/data-dir-in-use-error.js';

/** A held lock on a PGlite data directory; `release()` is idempotent. */
export interface DataDirLock {
  readonly path: string;
  release(): Promise<void>;
}

/**
 * Takes `<dataDir>.lock` (a file holding the owner's pid) so that only one process at a time opens the
 * directory. A lock left by a process that no longer runs is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const path = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      let released = false;
      return {
        path,
        release: async () => {
          if (released) return;
          released = true;
          await unlink(path).catch(() => undefined);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(holder) && holder > 0 && isRunning(holder))
        throw new DataDirInUseError(dataDir, holder);
      await unlink(path).catch(() => undefined); // stale: its owner is gone
    }
  }
  throw new DataDirInUseError(dataDir, Number.NaN);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}
