import type pg from 'pg';
import type { DataDirLockOptions } from './data-dir-lock.js';
import type { PrismaClient } from './generated/prisma/client.js';
import type { MigrationReport } from './migration-runner.js';
import type { NotifiedEpochLog } from './notified-epoch.js';
import type { ReadEpoch } from './read-epoch.js';

/** An open, migrated database with its Prisma client. */
export interface Database {
  readonly prisma: PrismaClient;
  readonly kind: 'postgres' | 'pglite';
  /** The PostgreSQL pool Prisma uses, for statements a library runs itself (the shared rate-limit counts); null on PGlite. */
  readonly pgPool: pg.Pool | null;
  /**
   * A count a cache keys its readings on (see `EpochReadCache`): on PGlite it moves whenever a statement
   * that may change the tables read starts (`WriteEpoch`); on PostgreSQL, which other orchestrators write
   * too, when a change of one of the announced tables is heard (`NotifiedEpoch`; readings of other tables
   * are never kept there).
   */
  readonly changeEpoch: ReadEpoch;
  /**
   * Runs one parameterised statement (`$1`, `$2`, …) on its own, outside Prisma, and returns the rows it
   * changed: for hot-path writes where Prisma's per-statement cost is as large as the statement's (the
   * audit append). Driver errors surface as they are (`isUniqueViolation` reads them). Like `query`, it
   * prepares the statement once per connection (see `prepared-statements.ts`), so pass constant SQL.
   */
  execute(sql: string, params: readonly unknown[]): Promise<number>;
  /**
   * Runs SQL text without parameters (values inlined with `sqlLiteral`) in the simple query protocol:
   * on PGlite one pass into the engine instead of the extended protocol's parse, describe, bind and execute,
   * which costs a quarter less CPU for a one-row insert and a third less for 16 rows (measured; the audit
   * append). Driver errors surface as they are. `into` names the one table the text writes, when it is a
   * single insert into it: on PGlite, readings cached from other tables then stand (see `WriteEpoch`).
   */
  executeText(sql: string, into?: { table: string }): Promise<void>;
  /**
   * PGlite only (undefined on PostgreSQL, whose driver needs a stream for COPY): inserts `rows`, built with
   * `BinaryCopyRows` in the order of `columns`, into `table` by `COPY … FROM '<file>' WITH (FORMAT
   * binary)` in the simple query protocol, the input a file in PGlite's in-memory file system. Per row it costs PGlite less CPU than a multi-row
   * `INSERT … VALUES` at dozens of rows (text COPY and INSERT were even at 16 rows, and binary input costs a
   * fifth less per row than text; measured), more at a few; the audit append uses it from 32 rows. Driver
   * errors surface as they are. It writes `table` alone (see `WriteEpoch`).
   */
  copyRows?(table: string, columns: readonly string[], rows: Uint8Array): Promise<void>;
  /**
   * Runs one parameterised read outside Prisma and returns its rows, for hot-path reads (a gated call's
   * grants). Only text columns read the same on both drivers (PGlite carries the Prisma adapter's parsers):
   * cast anything else to text, or build one JSON text per row.
   */
  query<Row extends object = Record<string, string | null>>(
    sql: string,
    params: readonly unknown[],
  ): Promise<Row[]>;
  /** What the start-up migration run did. */
  readonly migrations: MigrationReport;
  /** Disconnects the client and releases the connection pool or the PGlite instance. */
  close(): Promise<void>;
}

/** Options for `openDatabase`; every field is optional. */
export interface OpenDatabaseOptions {
  /** Folder of committed migrations. Default: this library's `prisma/migrations`. */
  migrationsDir?: string;
  /** How long to wait for PostgreSQL to accept a connection. Default `DEFAULT_CONNECT_TIMEOUT_MS`. */
  connectTimeoutMs?: number;
  /** How the PGlite data directory is locked (staleness of an abandoned lock, how long to wait for it). */
  lock?: DataDirLockOptions;
  /** Where the database reports on its own connections (on PostgreSQL, the change notices). Default: nowhere. */
  log?: NotifiedEpochLog;
}

/** Default bound on a PostgreSQL connection attempt, so a dead server fails start-up instead of hanging it. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
