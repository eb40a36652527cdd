import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { CommittedMigration } from './committed-migrations.js';
import { PGLITE_IN_MEMORY } from './database-config.js';
import type { Database } from './database.js';
import { IncompatibleDataDirError } from './errors/incompatible-data-dir-error.js';
import { PrismaClient } from './generated/prisma/client.js';
import { runMigrations } from './migration-runner.js';
import { PgliteSqlExecutor } from './pglite-sql-executor.js';

/**
 * PostgreSQL major version embedded by the pinned `@electric-sql/pglite` (0.5.x). A data directory written
 * by another major cannot be opened; checked up front because PGlite itself fails obscurely on one.
 */
export const PGLITE_POSTGRES_MAJOR = '18';

/** Opens (creating if needed) the PGlite data directory, migrates it and wraps it in a Prisma client. */
export async function openPgliteDatabase(dataDir: string, migrations: readonly CommittedMigration[]): Promise<Database> {
  if (dataDir !== PGLITE_IN_MEMORY) await assertCompatibleDataDir(dataDir);
  let db: PGlite;
  try {
    db = await PGlite.create(dataDir);
  } catch (error) {
    throw new IncompatibleDataDirError(dataDir, 'unreadable', PGLITE_POSTGRES_MAJOR, error);
  }
  let report;
  try {
    report = await runMigrations(new PgliteSqlExecutor(db), migrations);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(db) });
  return {
    prisma,
    kind: 'pglite',
    migrations: report,
    close: async () => {
      await prisma.$disconnect();
      await db.close();
    },
  };
}

async function assertCompatibleDataDir(dataDir: string): Promise<void> {
  let version: string;
  try {
    version = (await readFile(join(dataDir, 'PG_VERSION'), 'utf8')).trim();
  } catch {
    return; // a new (or empty) directory: PGlite initialises it
  }
  if (version !== PGLITE_POSTGRES_MAJOR) throw new IncompatibleDataDirError(dataDir, version, PGLITE_POSTGRES_MAJOR);
}
