import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { openDatabase } from '../src/create-database.js';
import type { Database } from '../src/database.js';

jest.setTimeout(60_000);

describe('PGlite in its own thread (TALON_PGLITE_THREAD=on)', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openDatabase({ kind: 'pglite', dataDir: 'memory://', thread: true });
  });

  afterAll(async () => {
    await db.close();
  });

  it('leaves the event loop free while a statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    try {
      // In the main thread PGlite's WebAssembly would hold the loop for the whole second: no tick at all.
      await db.query('SELECT pg_sleep(1)::text AS slept', []);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  it("runs Prisma's interactive transactions there: one rolled back leaves nothing, one committed stays", async () => {
    const failed = db.prisma.$transaction(async (tx) => {
      await tx.session.create({ data: { title: 'rolled back' } });
      throw new Error('changed my mind');
    });
    await expect(failed).rejects.toThrow('changed my mind');
    const kept = await db.prisma.$transaction(async (tx) => {
      const session = await tx.session.create({ data: { title: 'kept' } });
      return tx.session.update({ where: { id: session.id }, data: { title: 'kept, renamed' } });
    });
    const titles = (await db.prisma.session.findMany()).map((session) => session.title);
    expect(titles).toEqual(['kept, renamed']);
    expect(kept.createdAt).toBeInstanceOf(Date);
  });

  it('answers requests that arrive together, each with its own reply', async () => {
    const values = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        db.query<{ n: string }>('SELECT ($1::int * 2)::text AS n', [index]),
      ),
    );
    expect(values.map(([row]) => Number(row!.n))).toEqual(
      Array.from({ length: 50 }, (_, index) => index * 2),
    );
  });
});
