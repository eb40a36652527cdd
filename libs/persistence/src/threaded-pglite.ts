import { migratedPgliteDatabase } from './pglite-database.js';
import type { PgliteHost } from './pglite-host.js';
import { PgliteThreadClient } from './pglite-thread-client.js';
import { PgliteThreadSqlExecutor } from './pglite-thread-sql-executor.js';
import { ThreadedPgliteAdapterFactory } from './threaded-pglite-adapter.js';

/**
 * PGlite in a thread of its own (`TALON_PGLITE_THREAD=on`, see `PgliteThreadClient`): statements run beside
 * the event loop, which a busy orchestrator needs free (tools.call at concurrency 64: 19 % more calls/s,
 * measured); each round trip to the thread costs about 0.1–0.2 ms of CPU more than a statement in process
 * (this machine), so a chat turn's sequential statements take longer.
 */
export const threadedPglite: PgliteHost = {
  async start(dataDir, startParams) {
    const client = await PgliteThreadClient.start({ dataDir, startParams: [...startParams] });
    return {
      open: (migrations, lock) =>
        migratedPgliteDatabase(
          {
            executor: new PgliteThreadSqlExecutor(client),
            adapter: new ThreadedPgliteAdapterFactory(client),
            statements: {
              execute: (sql, params) => client.call<number>({ op: 'execute', sql, params }),
              executeText: async (sql, into) => {
                await client.call({ op: 'executeText', sql, ...(into ? { table: into.table } : {}) });
              },
              copyRows: async (table, columns, rows) => {
                await client.call({ op: 'copyRows', table, columns, rows });
              },
              query: <Row extends object>(sql: string, params: readonly unknown[]) =>
                client.call<Row[]>({ op: 'preparedQuery', sql, params }),
            },
            writeEpoch: client.writeEpoch,
            closeEngine: () => client.close(),
          },
          migrations,
          lock,
        ),
    };
  },
};
