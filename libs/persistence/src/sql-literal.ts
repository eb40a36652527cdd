import pg from 'pg';

/**
 * One value as a SQL literal for {@link Database.executeText}: NULL, an integer, or a string quoted by
 * node-postgres's `escapeLiteral` (quotes doubled; with a backslash, an `E'…'` literal with it doubled),
 * which reads the same whatever `standard_conforming_strings` says. Anything else is refused: a value
 * that is not plain text or an integer has no business being inlined.
 */
export function sqlLiteral(value: string | number | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not an integer for a SQL literal: ${value}`);
    return String(value);
  }
  if (typeof value !== 'string') throw new TypeError(`not text for a SQL literal: ${typeof value}`);
  return pg.escapeLiteral(value);
}
