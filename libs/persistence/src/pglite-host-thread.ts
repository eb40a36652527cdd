// The entry of the thread that runs PGlite (see `PgliteThreadClient`): it opens the data directory, then
// answers the main thread's requests one message each, in the order PGlite's own locks give them.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { SqlDriverAdapter, Transaction } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { pgliteAdapterView } from './pglite-adapter-view.js';
import { PgliteSimpleQuery } from './pglite-simple-query.js';
import { PgliteSqlExecutor } from './pglite-sql-executor.js';
import type {
  PgliteThreadData,
  PgliteThreadReply,
  PgliteThreadRequest,
  PgliteThreadStart,
} from './pglite-thread-messages.js';
import { PglitePreparedStatements } from './prepared-statements.js';
import type { SqlExecutor } from './sql-executor.js';
import { transportError } from './transported-error.js';

/** An open transaction: Prisma's, or one the migration runner works in (ended by the main thread). */
type OpenTransaction =
  | { kind: 'prisma'; tx: Transaction }
  | { kind: 'work'; executor: SqlExecutor; end: (commit: boolean) => void; settled: Promise<unknown> };

/** Thrown into a work transaction the main thread rolls back, so PGlite rolls it back. */
class RolledBack extends Error {}

const port = parentPort!;
const { dataDir, startParams } = workerData as PgliteThreadData;

let db: PGlite;
try {
  db = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...startParams] });
} catch (error) {
  port.postMessage({ started: false, error: transportError(error) } satisfies PgliteThreadStart);
  process.exit(0);
}
const adapter: SqlDriverAdapter = await new PrismaPGlite(pgliteAdapterView(db)).connect();
const executor = new PgliteSqlExecutor(db);
const simpleQuery = new PgliteSimpleQuery(db);
const statements = new PglitePreparedStatements(db, simpleQuery);
const transactions = new Map<number, OpenTransaction>();
let nextTransaction = 1;

port.on('message', (request: PgliteThreadRequest) => {
  answer(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies PgliteThreadReply),
    (error: unknown) =>
      port.postMessage({
        id: request.id,
        ok: false,
        error: transportError(error),
      } satisfies PgliteThreadReply),
  );
});
port.postMessage({ started: true } satisfies PgliteThreadStart);

async function answer(request: PgliteThreadRequest): Promise<unknown> {
  switch (request.op) {
    case 'queryRaw':
      return queryable(request.txId).queryRaw(request.query);
    case 'executeRaw':
      return queryable(request.txId).executeRaw(request.query);
    case 'executeScript':
      return adapter.executeScript(request.script);
    case 'startTransaction': {
      const tx = await adapter.startTransaction(request.isolationLevel);
      const txId = nextTransaction++;
      transactions.set(txId, { kind: 'prisma', tx });
      return { txId, options: tx.options };
    }
    case 'beginWork':
      return beginWork();
    case 'endTransaction':
      return endTransaction(request.txId, request.commit);
    case 'query':
      return sqlExecutor(request.txId).query(request.sql, request.params);
    case 'executeScriptIn':
      return sqlExecutor(request.txId).executeScript(request.sql);
    case 'execute':
      return statements.execute(request.sql, request.params);
    case 'executeText':
      await simpleQuery.run(request.sql);
      return undefined;
    case 'copyRows':
      await simpleQuery.copyRows(request.table, request.columns, request.rows);
      return undefined;
    case 'preparedQuery':
      return (await statements.run(request.sql, request.params)).rows;
    case 'close':
      await db.close();
      return undefined;
  }
}

function transaction(txId: number): OpenTransaction {
  const open = transactions.get(txId);
  if (!open) throw new Error(`no open transaction ${txId} in the PGlite thread`);
  return open;
}

function queryable(txId: number | undefined): SqlDriverAdapter | Transaction {
  if (txId === undefined) return adapter;
  const open = transaction(txId);
  if (open.kind !== 'prisma') throw new Error(`transaction ${txId} is not Prisma's`);
  return open.tx;
}

function sqlExecutor(txId: number | undefined): SqlExecutor {
  if (txId === undefined) return executor;
  const open = transaction(txId);
  if (open.kind !== 'work') throw new Error(`transaction ${txId} is Prisma's`);
  return open.executor;
}

/** Opens a transaction the main thread then works in, query by query, until it ends it. */
function beginWork(): Promise<number> {
  const txId = nextTransaction++;
  return new Promise((begun, failed) => {
    let entered = false;
    const settled: Promise<void> = executor
      .transaction(
        (tx) =>
          new Promise<void>((commit, rollBack) => {
            entered = true;
            transactions.set(txId, {
              kind: 'work',
              executor: tx,
              end: (commitIt) => (commitIt ? commit() : rollBack(new RolledBack())),
              settled,
            });
            begun(txId);
          }),
      )
      .catch((error: unknown) => {
        if (error instanceof RolledBack) return;
        if (!entered) return failed(error);
        throw error; // a failed commit: `endTransaction` reports it
      });
  });
}

async function endTransaction(txId: number, commit: boolean): Promise<void> {
  const open = transaction(txId);
  transactions.delete(txId);
  if (open.kind === 'prisma') {
    await (commit ? open.tx.commit() : open.tx.rollback());
    return;
  }
  open.end(commit);
  await open.settled;
}
