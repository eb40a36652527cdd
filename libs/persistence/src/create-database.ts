import { DEFAULT_MIGRATIONS_DIR, loadCommittedMigrations } from './committed-migrations.js';
import type { DatabaseConfig } from './database-config.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, type Database, type OpenDatabaseOptions } from './database.js';
import { openPostgresDatabase } from './open-postgres-database.js';

/**
 * Opens the configured database, applies the committed migrations it lacks, and returns a Prisma client
 * bound to the right driver adapter (`@prisma/adapter-pg` or `pglite-prisma-adapter`).
 */
export async function openDatabase(
  config: DatabaseConfig,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const migrations = await loadCommittedMigrations(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  if (config.kind === 'postgres') {
    return openPostgresDatabase(
      config.url,
      migrations,
      options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      options.log,
    );
  }
  // Loaded only for PGlite: a service on PostgreSQL never needs the embedded engine in memory.
  const { openPgliteDatabase } = await import('./open-pglite-database.js');
  return openPgliteDatabase(config.dataDir, migrations, {
    lock: options.lock,
    sharedBuffers: config.sharedBuffers,
    thread: config.thread,
  });
}
