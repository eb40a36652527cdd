import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { DataDirInUseError, type DataDirHolder } from './errors/data-dir-in-use-error.js';
import { DataDirLockLostError } from './errors/data-dir-lock-lost-error.js';

/** A held lock on a PGlite data directory; `release()` is idempotent. */
export interface DataDirLock {
  /** The lock directory (`<dataDir>.lock`). */
  readonly path: string;
  release(): Promise<void>;
}

/** Options of {@link lockDataDir}. */
export interface DataDirLockOptions {
  /**
   * A lock whose heartbeat (its mtime, refreshed every `staleMs / 4`) is older than this is abandoned and
   * taken over. Pids prove nothing in containers (every service is pid 1), so staleness is by time only.
   * Default {@link DEFAULT_LOCK_STALE_MS}; at least 2000 (proper-lockfile's floor).
   */
  staleMs?: number;
  /**
   * How long to wait for a lock whose heartbeat has stopped (a crashed predecessor, e.g. before a container
   * restart) to go stale and be taken over. A lock whose heartbeat moves is refused after one refresh
   * interval (`staleMs / 4`). Default `staleMs + 5000`.
   */
  waitMs?: number;
  /**
   * Called if the lock is lost while held (its heartbeat could not be written for `staleMs`, or another
   * process took it over). Default: throw {@link DataDirLockLostError} from the timer, which ends the process
   * before it writes to a directory that someone else may now own.
   */
  onLost?: (error: DataDirLockLostError) => void;
}

/** Default of {@link DataDirLockOptions.staleMs}: a heartbeat older than 30 s means the holder is gone (long enough for a PGlite start that blocks the event loop). */
export const DEFAULT_LOCK_STALE_MS = 30_000;

/**
 * Takes `<dataDir>.lock` with proper-lockfile (an atomic `mkdir`, its mtime refreshed as a heartbeat) so
 * that only one process at a time opens the directory, and writes `<dataDir>.lock-owner.json` beside it so
 * that a refused process can say who holds it. A lock whose heartbeat stopped is taken over.
 */
export async function lockDataDir(dataDir: string, options: DataDirLockOptions = {}): Promise<DataDirLock> {
  const staleMs = Math.max(2000, options.staleMs ?? DEFAULT_LOCK_STALE_MS);
  const waitMs = Math.max(0, options.waitMs ?? staleMs + 5000);
  const path = `${dataDir}.lock`;
  const ownerPath = `${dataDir}.lock-owner.json`;
  const update = Math.floor(staleMs / 4);
  const deadline = Date.now() + waitMs;
  let release: () => Promise<void>;
  for (;;) {
    try {
      release = await lockfile.lock(dataDir, {
        lockfilePath: path,
        realpath: false,
        stale: staleMs,
        update,
        retries: 0,
        onCompromised: (cause) => {
          const lost = new DataDirLockLostError(dataDir, cause);
          if (options.onLost) options.onLost(lost);
          else throw lost;
        },
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      // Watch the heartbeat for one refresh interval: a holder that refreshes it is alive, refused. One that
      // does not (killed, e.g. before a container restart) is waited out until its lock is stale, and then
      // proper-lockfile takes it over.
      const seen = await heartbeatOf(path);
      await sleep(update + 250);
      const now = await heartbeatOf(path);
      if (seen !== undefined && now !== undefined && now !== seen)
        throw new DataDirInUseError(dataDir, await readHolder(path, ownerPath), staleMs);
      const age = now === undefined ? staleMs : Date.now() - now;
      const retryAt = Date.now() + Math.max(0, staleMs - age + 100);
      if (retryAt > deadline)
        throw new DataDirInUseError(dataDir, await readHolder(path, ownerPath), staleMs);
      await sleep(retryAt - Date.now());
    }
  }
  const owner: DataDirHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  await writeFile(ownerPath, JSON.stringify(owner));
  let released = false;
  return {
    path,
    release: async () => {
      if (released) return;
      released = true;
      await rm(ownerPath, { force: true });
      await release().catch(() => undefined); // already lost: nothing left to free
    },
  };
}

/** The lock's mtime (its last heartbeat), or undefined when there is no lock. */
async function heartbeatOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** What the lock's owner file and heartbeat say about the process holding it (best effort). */
async function readHolder(
  path: string,
  ownerPath: string,
): Promise<DataDirHolder & { heartbeatAgeMs?: number }> {
  const holder: DataDirHolder & { heartbeatAgeMs?: number } = {};
  try {
    Object.assign(holder, JSON.parse(await readFile(ownerPath, 'utf8')) as DataDirHolder);
  } catch {
    // The holder has not written it yet, or it is gone: the lock itself is what counts.
  }
  try {
    holder.heartbeatAgeMs = Math.max(0, Date.now() - (await stat(path)).mtimeMs);
  } catch {
    // Released in the meantime.
  }
  return holder;
}
