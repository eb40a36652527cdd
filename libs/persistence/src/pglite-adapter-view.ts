import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';
import type { WriteEpoch } from './write-epoch.js';

type Queryable = Pick<PGlite, 'query'>;

/**
 * The PGlite instance as the Prisma adapter sees it. pglite-prisma-adapter passes its result parsers with
 * every query, and PGlite then copies its whole parser table (300+ types) for each one: 0.14 ms a
 * statement, as long as `SELECT 1` itself takes (measured, PGlite 0.5). This view installs the adapter's
 * parsers on the instance once and sends the queries without them; results parse the same. It moves
 * `epoch` for every statement but a SELECT, and for every other call (a transaction, `exec`); PGlite in a
 * thread of its own has none here (its client counts in the calling thread).
 */
export function pgliteAdapterView(db: PGlite, epoch?: WriteEpoch): PGlite {
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
    (sql, params, options) => {
      epoch?.advanceFor(sql);
      return target.query(sql, params, withoutParsers(options));
    };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'query') return query(target);
      if (key === 'transaction')
        return <T>(callback: (tx: Transaction) => Promise<T>) => {
          epoch?.advance();
          return target.transaction((tx) => callback(bound(tx, { query: query(tx) }, epoch)));
        };
      return counted(bindMethod(target, Reflect.get(target, key, target)), epoch);
    },
  });
}

/** `target` with some members replaced; its own methods run on it (PGlite keeps private fields). */
function bound<T extends object>(target: T, replaced: Partial<T>, epoch: WriteEpoch | undefined): T {
  return new Proxy(target, {
    get: (object, key) =>
      key in replaced
        ? replaced[key as keyof T]
        : counted(bindMethod(object, Reflect.get(object, key, object)), epoch),
  });
}

/** A method that moves `epoch` before it runs (it may write); anything else as it is. */
function counted(value: unknown, epoch: WriteEpoch | undefined): unknown {
  if (typeof value !== 'function' || !epoch) return value;
  return (...args: unknown[]) => {
    epoch.advance();
    return (value as (...args: unknown[]) => unknown)(...args);
  };
}

function bindMethod(target: object, value: unknown): unknown {
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}
