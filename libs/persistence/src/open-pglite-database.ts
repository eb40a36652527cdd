import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommittedMigration } from './committed-migrations.js';
import { PGLITE_IN_MEMORY } from './database-config.js';
import type { Database } from './database.js';
import { IncompatibleDataDirError } from './errors/incompatible-data-dir-error.js';
import { inProcessPglite } from './in-process-pglite.js';
import { lockDataDir, type DataDirLockOptions } from './data-dir-lock.js';
import { createPgliteClusterInChildProcess } from './pglite-cluster-creation.js';
import type { StartedPglite } from './pglite-host.js';
import { DEFAULT_PGLITE_SHARED_BUFFERS, PGLITE_POSTGRES_MAJOR } from './pglite-settings.js';
import { threadedPglite } from './threaded-pglite.js';

/** How `openPgliteDatabase` runs PGlite; every field is optional. */
export interface PgliteOpenOptions {
  lock?: DataDirLockOptions;
  /** PostgreSQL's `shared_buffers` (default {@link DEFAULT_PGLITE_SHARED_BUFFERS}). */
  sharedBuffers?: string;
  /** Run PGlite in a thread of its own (see `threaded-pglite.ts`) instead of the calling thread. */
  thread?: boolean;
}

/**
 * Opens (creating if needed) the PGlite data directory, migrates it and wraps it in a Prisma client.
 * The directory is locked for this process until `close()`.
 */
export async function openPgliteDatabase(
  dataDir: string,
  migrations: readonly CommittedMigration[],
  options: PgliteOpenOptions = {},
): Promise<Database> {
  const host = options.thread ? threadedPglite : inProcessPglite;
  // Command-line settings, not `postgresqlconf`: PGlite writes that over the cluster's postgresql.conf.
  const startParams = ['-c', `shared_buffers=${options.sharedBuffers ?? DEFAULT_PGLITE_SHARED_BUFFERS}`];
  if (dataDir === PGLITE_IN_MEMORY) return (await host.start(dataDir, startParams)).open(migrations, null);
  const existingVersion = await readDataDirVersion(dataDir);
  if (existingVersion !== null && existingVersion !== PGLITE_POSTGRES_MAJOR) {
    throw new IncompatibleDataDirError(dataDir, existingVersion, PGLITE_POSTGRES_MAJOR);
  }
  await mkdir(dataDir, { recursive: true }); // PGlite creates only the last level
  const lock = await lockDataDir(dataDir, options.lock);
  let started: StartedPglite;
  try {
    if (existingVersion === null) await createPgliteClusterInChildProcess(dataDir, startParams);
    started = await host.start(dataDir, startParams);
  } catch (error) {
    await lock.release();
    // An existing cluster PGlite cannot open is a data problem; anything else (permissions, disk) is not.
    if (existingVersion !== null)
      throw new IncompatibleDataDirError(dataDir, null, PGLITE_POSTGRES_MAJOR, error);
    throw error;
  }
  return started.open(migrations, lock);
}

/** The PostgreSQL major that wrote the cluster in `dataDir`, or null for a new or empty directory. */
async function readDataDirVersion(dataDir: string): Promise<string | null> {
  try {
    return (await readFile(join(dataDir, 'PG_VERSION'), 'utf8')).trim();
  } catch {
    return null;
  }
}
