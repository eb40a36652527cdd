import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { CommittedMigration } from './committed-migrations.js';
import { PGLITE_IN_MEMORY } from './database-config.js';
import type { Database } from './database.js';
import { IncompatibleDataDirError } from './errors/incompatible-data-dir-error.js';
import { PrismaClient } from './generated/prisma/client.js';
import { runMigrations } from './migration-runner.js';
import { pgliteAdapterView } from './pglite-adapter-view.js';
import { PgliteSimpleQuery } from './pglite-simple-query.js';
import { PgliteSqlExecutor } from './pglite-sql-executor.js';
import { PglitePreparedStatements } from './prepared-statements.js';
import { lockDataDir, type DataDirLock, type DataDirLockOptions } from './data-dir-lock.js';
import { createPgliteClusterInChildProcess } from './pglite-cluster-creation.js';
import { DEFAULT_PGLITE_SHARED_BUFFERS, PGLITE_POSTGRES_MAJOR } from './pglite-settings.js';
import { useBaselineWasmTier } from './wasm-baseline-tier.js';

/**
 * Opens (creating if needed) the PGlite data directory, migrates it and wraps it in a Prisma client.
 * The directory is locked for this process until `close()`.
 */
export async function openPgliteDatabase(
  dataDir: string,
  migrations: readonly CommittedMigration[],
  lockOptions: DataDirLockOptions = {},
  sharedBuffers: string = DEFAULT_PGLITE_SHARED_BUFFERS,
): Promise<Database> {
  useBaselineWasmTier();
  // Command-line settings, not `postgresqlconf`: PGlite writes that over the cluster's postgresql.conf.
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`];
  if (dataDir === PGLITE_IN_MEMORY)
    return openOn(await PGlite.create(dataDir, { startParams }), migrations, null);
  const existingVersion = await readDataDirVersion(dataDir);
  if (existingVersion !== null && existingVersion !== PGLITE_POSTGRES_MAJOR) {
    throw new IncompatibleDataDirError(dataDir, existingVersion, PGLITE_POSTGRES_MAJOR);
  }
  await mkdir(dataDir, { recursive: true }); // PGlite creates only the last level
  const lock = await lockDataDir(dataDir, lockOptions);
  let db: PGlite;
  try {
    if (existingVersion === null) await createPgliteClusterInChildProcess(dataDir, startParams);
    db = await PGlite.create(dataDir, { startParams });
  } catch (error) {
    await lock.release();
    // An existing cluster PGlite cannot open is a data problem; anything else (permissions, disk) is not.
    if (existingVersion !== null)
      throw new IncompatibleDataDirError(dataDir, null, PGLITE_POSTGRES_MAJOR, error);
    throw error;
  }
  return openOn(db, migrations, lock);
}

async function openOn(
  db: PGlite,
  migrations: readonly CommittedMigration[],
  lock: DataDirLock | null,
): Promise<Database> {
  let report;
  try {
    report = await runMigrations(new PgliteSqlExecutor(db), migrations);
  } catch (error) {
    await db.close().catch(() => undefined);
    await lock?.release();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pgliteAdapterView(db)) });
  const simpleQuery = new PgliteSimpleQuery(db);
  const statements = new PglitePreparedStatements(db, simpleQuery);
  return {
    prisma,
    kind: 'pglite',
    pgPool: null,
    execute: (sql, params) => statements.execute(sql, params),
    executeText: async (sql) => {
      await simpleQuery.run(sql);
    },
    copyRows: async (table, columns, rows) => {
      await simpleQuery.run(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob'`, rows);
    },
    query: async <Row extends object>(sql: string, params: readonly unknown[]) =>
      (await statements.run<Row>(sql, params)).rows,
    migrations: report,
    close: async () => {
      try {
        await prisma.$disconnect();
        await db.close();
      } finally {
        await lock?.release();
      }
    },
  };
}

/** The PostgreSQL major that wrote the cluster in `dataDir`, or null for a new or empty directory. */
async function readDataDirVersion(dataDir: string): Promise<string | null> {
  try {
    return (await readFile(join(dataDir, 'PG_VERSION'), 'utf8')).trim();
  } catch {
    return null;
  }
}
