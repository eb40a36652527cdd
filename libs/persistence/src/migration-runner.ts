import { randomUUID } from 'node:crypto';
import { checksumMatches, type CommittedMigration } from './committed-migrations.js';
import { MigrationChecksumMismatchError } from './errors/migration-checksum-mismatch-error.js';
import { MigrationFailedError } from './errors/migration-failed-error.js';
import type { SqlExecutor } from './sql-executor.js';

/**
 * Advisory lock key shared with `prisma migrate deploy`, so Talon and the Prisma CLI never migrate at once
 * and two orchestrators starting together apply each migration exactly once.
 */
export const MIGRATION_LOCK_KEY = 72707369;

/** Prisma's bookkeeping table, created exactly as Prisma creates it so the CLI reads our rows as its own. */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"            VARCHAR(64) NOT NULL,
    "finished_at"         TIMESTAMPTZ,
    "migration_name"      VARCHAR(255) NOT NULL,
    "logs"                TEXT,
    "rolled_back_at"      TIMESTAMPTZ,
    "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** What one run did. */
export interface MigrationReport {
  /** Applied by this run, in order. */
  readonly applied: string[];
  /** Already recorded as applied before this run. */
  readonly alreadyApplied: string[];
  /** Recorded in the database but not committed here (a newer Talon migrated this database); left alone. */
  readonly unknownApplied: string[];
}

/**
 * Applies the committed migrations that the database has not recorded yet, each in its own transaction,
 * recording them in `_prisma_migrations`. Idempotent. Refuses, before changing anything, when an applied
 * migration's file changed or an earlier attempt was left failed.
 */
export async function runMigrations(
  executor: SqlExecutor,
  migrations: readonly CommittedMigration[],
): Promise<MigrationReport> {
  // Session-level lock: held across the per-migration transactions, released even when one fails.
  await executor.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    return await applyPending(executor, migrations);
  } finally {
    await executor.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
}

async function applyPending(
  executor: SqlExecutor,
  migrations: readonly CommittedMigration[],
): Promise<MigrationReport> {
  await executor.executeScript(CREATE_MIGRATIONS_TABLE);
  const rows = await executor.query<MigrationRow>(
    'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
  );
  const live = rows.filter((row) => row.rolled_back_at === null);
  const failed = live.find((row) => row.finished_at === null);
  if (failed)
    throw new MigrationFailedError(failed.migration_name, 'an earlier attempt is recorded as unfinished');

  const appliedByName = new Map(live.map((row) => [row.migration_name, row]));
  for (const migration of migrations) {
    const row = appliedByName.get(migration.name);
    if (row && !checksumMatches(migration.sql, row.checksum)) {
      throw new MigrationChecksumMismatchError(migration.name, row.checksum, migration.checksum);
    }
  }

  const committedNames = new Set(migrations.map((migration) => migration.name));
  const report: MigrationReport = {
    applied: [],
    alreadyApplied: migrations.filter((migration) => appliedByName.has(migration.name)).map((m) => m.name),
    unknownApplied: [...appliedByName.keys()].filter((name) => !committedNames.has(name)),
  };
  for (const migration of migrations) {
    if (appliedByName.has(migration.name)) continue;
    await applyOne(executor, migration);
    report.applied.push(migration.name);
  }
  return report;
}

async function applyOne(executor: SqlExecutor, migration: CommittedMigration): Promise<void> {
  try {
    await executor.transaction(async (tx) => {
      const startedAt = new Date();
      await tx.executeScript(migration.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations"
           (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
         VALUES ($1, $2, now(), $3, NULL, NULL, $4, 1)`,
        [randomUUID(), migration.checksum, migration.name, startedAt],
      );
    });
  } catch (error) {
    throw new MigrationFailedError(
      migration.name,
      error instanceof Error ? error.message : String(error),
      error,
    );
  }
}
