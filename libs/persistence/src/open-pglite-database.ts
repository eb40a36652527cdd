import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommittedMigration } from './committed-migrations.js';
import { PGLITE_IN_MEMORY } from './database-config.js';
import type { Database } from './database.js';
import { IncompatibleDataDirError } from './errors/incompatible-data-dir-error.js';
import { PrismaClient } from './generated/prisma/client.js';
import { runMigrations } from './migration-runner.js';
import { PgliteThreadClient } from './pglite-thread-client.js';
import { PgliteThreadSqlExecutor } from './pglite-thread-sql-executor.js';
import { lockDataDir, type DataDirLock, type DataDirLockOptions } from './data-dir-lock.js';
import { createPgliteClusterInChildProcess } from './pglite-cluster-creation.js';
import { DEFAULT_PGLITE_SHARED_BUFFERS, PGLITE_POSTGRES_MAJOR } from './pglite-settings.js';
import { ThreadedPgliteAdapterFactory } from './threaded-pglite-adapter.js';

/**
 * Opens (creating if needed) the PGlite data directory in a thread of its own (see `PgliteThreadClient`),
 * migrates it and wraps it in a Prisma client. The directory is locked for this process until `close()`.
 */
export async function openPgliteDatabase(
  dataDir: string,
  migrations: readonly CommittedMigration[],
  lockOptions: DataDirLockOptions = {},
  sharedBuffers: string = DEFAULT_PGLITE_SHARED_BUFFERS,
): Promise<Database> {
  // Command-line settings, not `postgresqlconf`: PGlite writes that over the cluster's postgresql.conf.
  // After PGlite's defaults, added where PGlite runs: this thread never loads PGlite itself.
  const startParams = ['-c', `shared_buffers=${sharedBuffers}`];
  if (dataDir === PGLITE_IN_MEMORY)
    return openOn(await PgliteThreadClient.start({ dataDir, startParams }), migrations, null);
  const existingVersion = await readDataDirVersion(dataDir);
  if (existingVersion !== null && existingVersion !== PGLITE_POSTGRES_MAJOR) {
    throw new IncompatibleDataDirError(dataDir, existingVersion, PGLITE_POSTGRES_MAJOR);
  }
  await mkdir(dataDir, { recursive: true }); // PGlite creates only the last level
  const lock = await lockDataDir(dataDir, lockOptions);
  let client: PgliteThreadClient;
  try {
    if (existingVersion === null) await createPgliteClusterInChildProcess(dataDir, startParams);
    client = await PgliteThreadClient.start({ dataDir, startParams });
  } catch (error) {
    await lock.release();
    // An existing cluster PGlite cannot open is a data problem; anything else (permissions, disk) is not.
    if (existingVersion !== null)
      throw new IncompatibleDataDirError(dataDir, null, PGLITE_POSTGRES_MAJOR, error);
    throw error;
  }
  return openOn(client, migrations, lock);
}

async function openOn(
  client: PgliteThreadClient,
  migrations: readonly CommittedMigration[],
  lock: DataDirLock | null,
): Promise<Database> {
  let report;
  try {
    report = await runMigrations(new PgliteThreadSqlExecutor(client), migrations);
  } catch (error) {
    await client.close().catch(() => undefined);
    await lock?.release();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new ThreadedPgliteAdapterFactory(client) });
  return {
    prisma,
    kind: 'pglite',
    pgPool: null,
    execute: (sql, params) => client.call<number>({ op: 'execute', sql, params }),
    executeText: async (sql) => {
      await client.call({ op: 'executeText', sql });
    },
    copyRows: async (table, columns, rows) => {
      await client.call({ op: 'copyRows', table, columns, rows });
    },
    query: <Row extends object>(sql: string, params: readonly unknown[]) =>
      client.call<Row[]>({ op: 'preparedQuery', sql, params }),
    migrations: report,
    close: async () => {
      try {
        await prisma.$disconnect();
        await client.close();
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
