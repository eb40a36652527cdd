import type { PgliteThreadClient } from './pglite-thread-client.js';
import type { SqlExecutor } from './sql-executor.js';

/** `SqlExecutor` over PGlite in its thread (see `PgliteThreadClient`), or one transaction open there. */
export class PgliteThreadSqlExecutor implements SqlExecutor {
  constructor(
    private readonly client: PgliteThreadClient,
    private readonly txId?: number,
  ) {}

  query<Row extends object = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<Row[]> {
    return this.client.call<Row[]>({ op: 'query', sql, params, txId: this.txId });
  }

  async executeScript(sql: string): Promise<void> {
    await this.client.call({ op: 'executeScriptIn', sql, txId: this.txId });
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    if (this.txId !== undefined) return work(this); // already inside one: PGlite has no nesting
    const txId = await this.client.call<number>({ op: 'beginWork' });
    let result: T;
    try {
      result = await work(new PgliteThreadSqlExecutor(this.client, txId));
    } catch (error) {
      await this.client.call({ op: 'endTransaction', txId, commit: false });
      throw error;
    }
    await this.client.call({ op: 'endTransaction', txId, commit: true });
    return result;
  }
}
