/** A statement that starts with SELECT is taken as a read (Talon's reads run no functions that write). */
const READ = /^\s*select\b/i;

/**
 * A count that moves whenever a statement that may change data starts on an embedded database, whoever
 * runs it in this process once it is open (Prisma, its transactions, the hot-path statements). PGlite runs one
 * statement at a time, waits for an open transaction before the next, and only this process can open its
 * data directory, so a read that began and ended while the count stood still is current for as long as the
 * count stands still: a cache may keep it until then (the policy gate's reads: at concurrency 64 one read in
 * 100–200 calls). Moving more often than needed only costs such a cache a read.
 */
export class WriteEpoch {
  private count = 0;

  current(): number {
    return this.count;
  }

  advance(): void {
    this.count++;
  }

  /** Advances unless `sql` is a read (see {@link READ}). */
  advanceFor(sql: string): void {
    if (!READ.test(sql)) this.count++;
  }
}
