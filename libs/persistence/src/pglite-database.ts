import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { CommittedMigration } from './committed-migrations.js';
import type { DataDirLock } from './data-dir-lock.js';
import type { Database } from './database.js';
import { PrismaClient } from './generated/prisma/client.js';
import { runMigrations } from './migration-runner.js';
import type { SqlExecutor } from './sql-executor.js';
import type { WriteEpoch } from './write-epoch.js';

/** The statements a PGlite host runs beside Prisma (see `Database`). */
export type PgliteStatements = Pick<Database, 'execute' | 'executeText' | 'copyRows' | 'query'>;

/** What a PGlite host hands over to become a `Database`, wherever PGlite runs. */
export interface PgliteParts {
  /** Runs the migrations. */
  executor: SqlExecutor;
  /** Prisma's driver adapter over this PGlite. */
  adapter: SqlDriverAdapterFactory;
  statements: PgliteStatements;
  /** Moves with every statement that may write (see {@link WriteEpoch}). */
  writeEpoch: WriteEpoch;
  /** Closes PGlite itself (its data is written out). */
  closeEngine(): Promise<void>;
}

/**
 * Applies the migrations PGlite lacks and wraps it as a `Database`. A failed migration closes PGlite and
 * releases `lock`; the database's `close` disconnects Prisma, closes PGlite and releases `lock`.
 */
export async function migratedPgliteDatabase(
  parts: PgliteParts,
  migrations: readonly CommittedMigration[],
  lock: DataDirLock | null,
): Promise<Database> {
  let report;
  try {
    report = await runMigrations(parts.executor, migrations);
  } catch (error) {
    await parts.closeEngine().catch(() => undefined);
    await lock?.release();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: parts.adapter });
  return {
    prisma,
    kind: 'pglite',
    pgPool: null,
    changeEpoch: parts.writeEpoch,
    ...parts.statements,
    migrations: report,
    close: async () => {
      try {
        await prisma.$disconnect();
        await parts.closeEngine();
      } finally {
        await lock?.release();
      }
    },
  };
}
