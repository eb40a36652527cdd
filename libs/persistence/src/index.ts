export { openDatabase } from './create-database.js';
export { DEFAULT_CONNECT_TIMEOUT_MS, type Database, type OpenDatabaseOptions } from './database.js';
export {
  parseDatabaseConfig,
  redactUrl,
  DEFAULT_PGLITE_DIR,
  PGLITE_IN_MEMORY,
  type DatabaseConfig,
  type DatabaseEnv,
  type PgliteDatabaseConfig,
  type PostgresDatabaseConfig,
} from './database-config.js';
export { PGLITE_POSTGRES_MAJOR, DEFAULT_PGLITE_SHARED_BUFFERS } from './pglite-settings.js';
export { runMigrations, MIGRATION_LOCK_KEY, type MigrationReport } from './migration-runner.js';
export {
  loadCommittedMigrations,
  migrationChecksum,
  DEFAULT_MIGRATIONS_DIR,
  type CommittedMigration,
} from './committed-migrations.js';
export { isUniqueViolation } from './unique-violation.js';
export { sqlLiteral } from './sql-literal.js';
export { BinaryCopyRows } from './binary-copy-rows.js';
export { EpochReadCache } from './epoch-read-cache.js';
export { NotifiedEpoch, NOTIFIED_TABLES, TABLE_CHANGE_CHANNEL } from './notified-epoch.js';
export type { ReadEpoch } from './read-epoch.js';
export { WriteEpoch } from './write-epoch.js';
export type { SqlExecutor } from './sql-executor.js';
export { PgSqlExecutor } from './pg-sql-executor.js';
export { PgliteSqlExecutor } from './pglite-sql-executor.js';
export { DatabaseUnreachableError } from './errors/database-unreachable-error.js';
export { IncompatibleDataDirError } from './errors/incompatible-data-dir-error.js';
export { DataDirInUseError, type DataDirHolder } from './errors/data-dir-in-use-error.js';
export { DataDirLockLostError } from './errors/data-dir-lock-lost-error.js';
export { DEFAULT_LOCK_STALE_MS, type DataDirLockOptions } from './data-dir-lock.js';
export { InvalidDatabaseConfigError } from './errors/invalid-database-config-error.js';
export { MigrationChecksumMismatchError } from './errors/migration-checksum-mismatch-error.js';
export { MigrationFailedError } from './errors/migration-failed-error.js';
export { PgliteStatementError, type PgliteStatementErrorFields } from './errors/pglite-statement-error.js';
export { PrismaClient, Prisma } from './generated/prisma/client.js';
export type {
  Approval,
  AuditEvent,
  Job,
  JobEvent,
  MemoryDocument,
  Message,
  Routine,
  RoutineFire,
  Secret,
  Session,
  SessionGrant,
  ToolCallClaim,
  TurnLease,
  HandInstance,
  HandRun,
  ReminderNotification,
} from './generated/prisma/client.js';
