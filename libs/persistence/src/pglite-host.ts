import type { CommittedMigration } from './committed-migrations.js';
import type { DataDirLock } from './data-dir-lock.js';
import type { Database } from './database.js';

/**
 * Where PGlite runs: in the calling thread (`inProcessPglite`) or in a thread of its own
 * (`threadedPglite`, `TALON_PGLITE_THREAD=on`). `openPgliteDatabase` locks and creates the data directory
 * either way.
 */
export interface PgliteHost {
  /** Opens PGlite on `dataDir` with `startParams` after PGlite's defaults; rejects with PGlite's own error. */
  start(dataDir: string, startParams: readonly string[]): Promise<StartedPglite>;
}

/** PGlite open on a data directory, not yet migrated. */
export interface StartedPglite {
  /**
   * Applies the migrations it lacks and wraps it in a Prisma client; closes it and releases `lock` when a
   * migration fails. The database's `close` releases `lock` too.
   */
  open(migrations: readonly CommittedMigration[], lock: DataDirLock | null): Promise<Database>;
}
