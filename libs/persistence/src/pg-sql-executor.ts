import type { Client, PoolClient } from 'pg';
import type { SqlExecutor } from './sql-executor.js';

/**
 * `SqlExecutor` over one node-postgres connection. A single connection (not a pool) so that session state
 * such as an advisory lock and an open transaction stays on the same backend.
 */
export class PgSqlExecutor implements SqlExecutor {
  constructor(private readonly client: Client | PoolClient) {}

  async query<Row extends object = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<Row[]> {
    const result = await this.client.query(sql, [...params]);
    return result.rows as Row[];
  }

  async executeScript(sql: string): Promise<void> {
    // Without parameters node-postgres uses the simple query protocol, which accepts several statements.
    await this.client.query(sql);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    await this.client.query('BEGIN');
    try {
      const value = await work(this);
      await this.client.query('COMMIT');
      return value;
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}
