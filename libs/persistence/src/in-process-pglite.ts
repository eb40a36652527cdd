import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { Database } from './database.js';
import { PrismaClient } from './generated/prisma/client.js';
import { runMigrations } from './migration-runner.js';
import { pgliteAdapterView } from './pglite-adapter-view.js';
import type { PgliteHost } from './pglite-host.js';
import { PgliteSimpleQuery } from './pglite-simple-query.js';
import { PgliteSqlExecutor } from './pglite-sql-executor.js';
import { PglitePreparedStatements } from './prepared-statements.js';
import { useBaselineWasmTier } from './wasm-baseline-tier.js';

/**
 * PGlite in the calling thread (the default): a statement costs no more than PGlite's own work, which
 * suits a chat turn's dozens of small sequential statements; a batch holds the event loop while it runs.
 */
export const inProcessPglite: PgliteHost = {
  async start(dataDir, startParams) {
    useBaselineWasmTier();
    const db = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...startParams] });
    return {
      async open(migrations, lock) {
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
        const database: Database = {
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
        return database;
      },
    };
  },
};
