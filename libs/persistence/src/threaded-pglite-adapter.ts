import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
  Transaction,
  TransactionOptions,
} from '@prisma/driver-adapter-utils';
import type { PgliteThreadClient } from './pglite-thread-client.js';

const PROVIDER = 'postgres';
/** The name of the adapter that answers in the thread. */
const ADAPTER_NAME = 'pglite-prisma-adapter';

/** Prisma's driver adapter for PGlite in its thread: each call is a request to pglite-prisma-adapter there. */
export class ThreadedPgliteAdapterFactory implements SqlDriverAdapterFactory {
  readonly provider = PROVIDER;
  readonly adapterName = ADAPTER_NAME;

  constructor(private readonly client: PgliteThreadClient) {}

  connect(): Promise<SqlDriverAdapter> {
    return Promise.resolve(new ThreadedPgliteAdapter(this.client));
  }
}

class ThreadedPgliteQueryable {
  readonly provider = PROVIDER;
  readonly adapterName = ADAPTER_NAME;

  constructor(
    protected readonly client: PgliteThreadClient,
    protected readonly txId?: number,
  ) {}

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return this.client.call<SqlResultSet>({ op: 'queryRaw', query, txId: this.txId });
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.client.call<number>({ op: 'executeRaw', query, txId: this.txId });
  }
}

class ThreadedPgliteAdapter extends ThreadedPgliteQueryable implements SqlDriverAdapter {
  async executeScript(script: string): Promise<void> {
    await this.client.call({ op: 'executeScript', script });
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    const { txId, options } = await this.client.call<{ txId: number; options: TransactionOptions }>({
      op: 'startTransaction',
      isolationLevel,
    });
    return new ThreadedPgliteTransaction(this.client, txId, options);
  }

  dispose(): Promise<void> {
    return Promise.resolve();
  }
}

class ThreadedPgliteTransaction extends ThreadedPgliteQueryable implements Transaction {
  constructor(
    client: PgliteThreadClient,
    txId: number,
    readonly options: TransactionOptions,
  ) {
    super(client, txId);
  }

  async commit(): Promise<void> {
    await this.client.call({ op: 'endTransaction', txId: this.txId!, commit: true });
  }

  async rollback(): Promise<void> {
    await this.client.call({ op: 'endTransaction', txId: this.txId!, commit: false });
  }
}
