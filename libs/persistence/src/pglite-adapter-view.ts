import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';

type Queryable = Pick<PGlite, 'query'>;

/**
 * The PGlite instance as the Prisma adapter sees it. pglite-prisma-adapter passes its result parsers with
 * every query, and PGlite then copies its whole parser table (300+ types) for each one: 0.14 ms a
 * statement, as long as `SELECT 1` itself takes (measured, PGlite 0.5). This view installs the adapter's
 * parsers on the instance once and sends the queries without them; results parse the same.
 */
export function pgliteAdapterView(db: PGlite): PGlite {
  const installed = new WeakSet<object>();
  const withoutParsers = (options: QueryOptions | undefined): QueryOptions | undefined => {
    const parsers = options?.parsers;
    if (!parsers) return options;
    if (!installed.has(parsers)) {
      Object.assign(db.parsers, parsers);
      installed.add(parsers);
    }
    const { parsers: _installed, ...rest } = options;
    return rest;
  };
  const query =
    (target: Queryable): Queryable['query'] =>
    (sql, params, options) =>
      target.query(sql, params, withoutParsers(options));
  return new Proxy(db, {
    get(target, key) {
      if (key === 'query') return query(target);
      if (key === 'transaction')
        return <T>(callback: (tx: Transaction) => Promise<T>) =>
          target.transaction((tx) => callback(bound(tx, { query: query(tx) })));
      return bindMethod(target, Reflect.get(target, key, target));
    },
  });
}

/** `target` with some members replaced; its own methods run on it (PGlite keeps private fields). */
function bound<T extends object>(target: T, replaced: Partial<T>): T {
  return new Proxy(target, {
    get: (object, key) =>
      key in replaced ? replaced[key as keyof T] : bindMethod(object, Reflect.get(object, key, object)),
  });
}

function bindMethod(target: object, value: unknown): unknown {
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}
