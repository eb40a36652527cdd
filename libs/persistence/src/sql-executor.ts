/**
 * The few SQL operations the migration runner needs, over one database session.
 * One implementation per driver: `PgSqlExecutor` (node-postgres) and `PgliteSqlExecutor` (PGlite).
 */
export interface SqlExecutor {
  /** Runs one parameterised statement (`$1`, `$2`, …) and returns its rows. */
  query<Row extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<Row[]>;
  /** Runs a script of several statements without parameters (a migration file). */
  executeScript(sql: string): Promise<void>;
  /** Runs `work` inside one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}
