import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { binaryCopyStatement } from './binary-copy-rows.js';
import { pgliteAdapterView } from './pglite-adapter-view.js';
import { migratedPgliteDatabase } from './pglite-database.js';
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
    const simpleQuery = new PgliteSimpleQuery(db);
    const statements = new PglitePreparedStatements(db, simpleQuery);
    return {
      open: (migrations, lock) =>
        migratedPgliteDatabase(
          {
            executor: new PgliteSqlExecutor(db),
            adapter: new PrismaPGlite(pgliteAdapterView(db)),
            statements: {
              execute: (sql, params) => statements.execute(sql, params),
              executeText: async (sql) => {
                await simpleQuery.run(sql);
              },
              copyRows: async (table, columns, rows) => {
                await simpleQuery.run(binaryCopyStatement(table, columns), rows);
              },
              query: async <Row extends object>(sql: string, params: readonly unknown[]) =>
                (await statements.run<Row>(sql, params)).rows,
            },
            closeEngine: () => db.close(),
          },
          migrations,
          lock,
        ),
    };
  },
};
