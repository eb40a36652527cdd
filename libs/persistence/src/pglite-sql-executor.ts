import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { SqlExecutor } from './sql-executor.js';

/** `SqlExecutor` over an in-process PGlite database (or one of its open transactions). */
export class PgliteSqlExecutor implements SqlExecutor {
  constructor(private readonly db: PGlite | Transaction) {}

  async query<Row extends object = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<Row[]> {
    const result = await this.db.query<Row>(sql, [...params]);
    return result.rows;
  }

  async executeScript(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    if (!('transaction' in this.db)) return work(this); // already inside one: PGlite has no nesting
    return this.db.transaction((tx) => work(new PgliteSqlExecutor(tx)));
  }
}
