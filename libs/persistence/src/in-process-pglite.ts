import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { pgliteAdapterView } from './pglite-adapter-view.js';
import { migratedPgliteDatabase } from './pglite-database.js';
import type { PgliteHost } from './pglite-host.js';
import { PgliteSimpleQuery } from './pglite-simple-query.js';
import { PgliteSqlExecutor } from './pglite-sql-executor.js';
import { PglitePreparedStatements } from './prepared-statements.js';
import { useBaselineWasmTier } from './wasm-baseline-tier.js';
import { WriteEpoch } from './write-epoch.js';

/**
 * PGlite in the calling thread (the default): a statement costs no more than PGlite's own work, which
 * suits a chat turn's dozens of small sequential statements; a batch holds the event loop while it runs.
 */
export const inProcessPglite: PgliteHost = {
  async start(dataDir, startParams) {
    useBaselineWasmTier();
    const db = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...startParams] });
    const simpleQuery = new PgliteSimpleQuery(db);
    const statements = new PglitePreparedStatements(db, simpleQuery);
    // Every way into PGlite after the migrations moves the write epoch for what may write: Prisma through
    // its adapter view (its SELECTs are reads), the statements below themselves. The migrations run before
    // the database is handed out, so no reading can predate them.
    const epoch = new WriteEpoch();
    return {
      open: (migrations, lock) =>
        migratedPgliteDatabase(
          {
            executor: new PgliteSqlExecutor(db),
            adapter: new PrismaPGlite(pgliteAdapterView(db, epoch)),
            statements: {
              execute: (sql, params) => {
                epoch.advance();
                return statements.execute(sql, params);
              },
              executeText: async (sql, into) => {
                if (into) epoch.advanceTable(into.table);
                else epoch.advance();
                await simpleQuery.run(sql);
              },
              copyRows: async (table, columns, rows) => {
                epoch.advanceTable(table);
                await simpleQuery.copyRows(table, columns, rows);
              },
              query: async <Row extends object>(sql: string, params: readonly unknown[]) => {
                epoch.advanceFor(sql);
                return (await statements.run<Row>(sql, params)).rows;
              },
            },
            writeEpoch: epoch,
            closeEngine: () => db.close(),
          },
          migrations,
          lock,
        ),
    };
  },
};
