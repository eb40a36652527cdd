import type { ReadEpoch } from './read-epoch.js';

/** A statement that starts with SELECT is taken as a read (Talon's reads run no functions that write). */
const READ = /^\s*select\b/i;

/**
 * A count that moves whenever a statement that may change data starts on an embedded database, whoever
 * runs it in this process once it is open (Prisma, its transactions, the hot-path statements). PGlite runs one
 * statement at a time, waits for an open transaction before the next, and only this process can open its
 * data directory, so a read that began and ended while the count stood still is current for as long as the
 * count stands still: a cache may keep it until then (the policy gate's reads). Moving more often than
 * needed only costs such a cache a read.
 *
 * A write known to change one table only (an insert or COPY into it: Talon's only triggers, migration
 * 0014's, send notices and write nothing) moves the count of readers of that table, and not the count of a
 * reader that names other tables: the audit append, one per call, would otherwise empty every such cache
 * with every call.
 */
export class WriteEpoch implements ReadEpoch {
  /** Writes that may have changed any table. */
  private anyTable = 0;
  /** Writes into one known table, by table, and their sum. */
  private readonly intoTable = new Map<string, number>();
  private intoSomeTable = 0;

  /**
   * The count a reading is kept under. With `tables`, the tables the reading depends on: writes known to
   * change only other tables leave it. Without, it moves with every write.
   */
  current(tables?: readonly string[]): number {
    if (tables === undefined) return this.anyTable + this.intoSomeTable;
    let count = this.anyTable;
    for (const table of tables) count += this.intoTable.get(table) ?? 0;
    return count;
  }

  /** A write that may change any table. */
  advance(): void {
    this.anyTable++;
  }

  /** A write that changes `table` and nothing else. */
  advanceTable(table: string): void {
    this.intoTable.set(table, (this.intoTable.get(table) ?? 0) + 1);
    this.intoSomeTable++;
  }

  /** Advances unless `sql` is a read (see {@link READ}). */
  advanceFor(sql: string): void {
    if (!READ.test(sql)) this.anyTable++;
  }
}
