import type { PGlite } from '@electric-sql/pglite';
import type { WriteEpoch } from './write-epoch.js';

/**
 * `db` with every method call advancing `epoch` first, for callers whose statements are not sorted into
 * reads and writes (the migrations; see {@link WriteEpoch}). Methods run on `db` itself, as PGlite keeps
 * private fields.
 */
export function countingPglite(db: PGlite, epoch: WriteEpoch): PGlite {
  return new Proxy(db, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        epoch.advance();
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
