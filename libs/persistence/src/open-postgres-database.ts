import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { CommittedMigration } from './committed-migrations.js';
import { redactUrl } from './database-config.js';
import type { Database } from './database.js';
import { DatabaseUnreachableError } from './errors/database-unreachable-error.js';
import { PrismaClient } from './generated/prisma/client.js';
import { runMigrations } from './migration-runner.js';
import { NotifiedEpoch, type NotifiedEpochLog } from './notified-epoch.js';
import { PgSqlExecutor } from './pg-sql-executor.js';
import { preparedStatementName } from './prepared-statements.js';

/** Connects to PostgreSQL, migrates it over one dedicated connection, then hands out a pooled Prisma client. */
export async function openPostgresDatabase(
  url: string,
  migrations: readonly CommittedMigration[],
  connectTimeoutMs: number,
  log?: NotifiedEpochLog,
): Promise<Database> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new DatabaseUnreachableError(redactUrl(url), describeConnectError(error), error);
  }
  let report;
  try {
    report = await runMigrations(new PgSqlExecutor(client), migrations);
  } finally {
    await client.end().catch(() => undefined);
  }
  // One pool for Prisma and the few raw statements beside it (the shared rate-limit counts).
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  // A connection of its own listens for changes of the tables whose readings are kept (migration 0014).
  const changeEpoch = new NotifiedEpoch(
    () =>
      new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true }),
    log,
  );
  await changeEpoch.start();
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  const prisma = new PrismaClient({ adapter });
  return {
    prisma,
    kind: 'postgres',
    pgPool: pool,
    changeEpoch,
    // Named statements: node-postgres prepares each once per pooled connection (unnamed past the cap).
    execute: async (sql, params) => (await pool.query(namedQuery(sql, params))).rowCount ?? 0,
    executeText: async (sql) => {
      await pool.query(sql);
    },
    query: async <Row extends object>(sql: string, params: readonly unknown[]) =>
      (await pool.query(namedQuery(sql, params))).rows as Row[],
    migrations: report,
    close: async () => {
      await changeEpoch.close();
      await prisma.$disconnect();
      if (!pool.ended) await pool.end();
    },
  };
}

function describeConnectError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

/** A node-postgres query config: named (prepared per connection) while under the cap, else unnamed. */
function namedQuery(sql: string, params: readonly unknown[]): pg.QueryConfig {
  const name = preparedStatementName(sql);
  return name === undefined ? { text: sql, values: [...params] } : { name, text: sql, values: [...params] };
}
