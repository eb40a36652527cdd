import { createHash } from 'node:crypto';
import type { PGlite, Results } from '@electric-sql/pglite';
import type { PgliteSimpleQuery } from './pglite-simple-query.js';
import { sqlLiteral } from './sql-literal.js';

/**
 * Most distinct statements given a prepared name in a process; past it a statement runs unprepared, so SQL
 * built at run time can never grow a connection's prepared statements without bound.
 */
export const MAX_PREPARED_STATEMENTS = 128;

/** Names by statement text: the same text gets the same name on every connection and every run. */
const names = new Map<string, string>();

/**
 * The name `sql` is prepared under (`talon_` and 20 hex digits of its SHA-256), or undefined once
 * {@link MAX_PREPARED_STATEMENTS} other statements have names: such a statement runs unprepared, on either
 * driver, so no connection ever holds more prepared statements than that.
 */
export function preparedStatementName(sql: string): string | undefined {
  let name = names.get(sql);
  if (name === undefined) {
    if (names.size >= MAX_PREPARED_STATEMENTS) return undefined;
    name = `talon_${createHash('sha256').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
  }
  return name;
}

type LiteralValue = string | number | null;

function isLiteralValue(value: unknown): value is LiteralValue {
  return (
    value === null || typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value))
  );
}

/** `EXECUTE name(literals)`, or `EXECUTE name` without parameters. */
function executeText(name: string, params: readonly LiteralValue[]): string {
  return params.length === 0 ? `EXECUTE ${name}` : `EXECUTE ${name}(${params.map(sqlLiteral).join(', ')})`;
}

/**
 * The statements `Database.query` and `Database.execute` run on PGlite, each planned once: the first use
 * runs `PREPARE`, every later one `EXECUTE name(literals)` in the simple query protocol. On PGlite
 * planning is most of a statement's CPU: a gated call's approval-and-grants read costs 0.8 ms planned
 * each time and 0.2 ms prepared (measured). PGlite is one backend session, so what is prepared stays.
 */
export class PglitePreparedStatements {
  /** Statement text → its prepared name, or null when it could not be prepared (it then runs as it is). */
  private readonly prepared = new Map<string, Promise<string | null>>();

  constructor(
    private readonly db: PGlite,
    private readonly simpleQuery: PgliteSimpleQuery,
  ) {}

  async run<Row>(sql: string, params: readonly unknown[]): Promise<Results<Row>> {
    const name = await this.preparedName(sql, params);
    if (name === null) return this.db.query<Row>(sql, [...params]);
    const [result] = await this.db.exec(executeText(name, params as LiteralValue[]));
    return result as Results<Row>;
  }

  /** Runs a statement for its effect and returns the rows it changed (no result rows are read). */
  async execute(sql: string, params: readonly unknown[]): Promise<number> {
    const name = await this.preparedName(sql, params);
    if (name === null) return (await this.db.query(sql, [...params])).affectedRows ?? 0;
    return (await this.simpleQuery.run(executeText(name, params as LiteralValue[]))).affectedRows;
  }

  /** The statement's prepared name, or null when it runs as it is (parameters that are not literals). */
  private preparedName(sql: string, params: readonly unknown[]): Promise<string | null> {
    return params.every(isLiteralValue) ? this.nameOf(sql) : Promise.resolve(null);
  }

  private nameOf(sql: string): Promise<string | null> {
    let name = this.prepared.get(sql);
    if (name === undefined) {
      const named = preparedStatementName(sql);
      if (named === undefined) return Promise.resolve(null);
      name = this.prepare(sql, named);
      this.prepared.set(sql, name);
    }
    return name;
  }

  private async prepare(sql: string, name: string): Promise<string | null> {
    try {
      await this.db.exec(`PREPARE ${name} AS ${sql}`);
      return name;
    } catch {
      // A statement PREPARE cannot type (a parameter only the extended protocol infers): it runs as it is,
      // and its own errors, if any, surface there.
      return null;
    }
  }
}
