import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { BinaryCopyRows } from '../src/binary-copy-rows.js';
import { openDatabase } from '../src/create-database.js';
import type { Database } from '../src/database.js';
import { NotifiedEpoch } from '../src/notified-epoch.js';
import { WriteEpoch } from '../src/write-epoch.js';
import { BACKENDS, type EmptyDatabase } from './backends.js';

// A new PGlite cluster takes seconds to initialise on a loaded machine.
jest.setTimeout(60_000);

describe.each(BACKENDS)('the write epoch on $label', (backend) => {
  let empty: EmptyDatabase;
  let db: Database;

  beforeAll(async () => {
    empty = await backend.create();
    db = await openDatabase(empty.config);
  });

  afterAll(async () => {
    await db?.close();
    await empty.dispose();
  });

  it(
    backend.name === 'postgres'
      ? 'is the notified epoch: other processes write to PostgreSQL too (notified-epoch.int.test.ts)'
      : 'stands still across reads and moves with every way of writing',
    async () => {
      if (backend.name === 'postgres') {
        expect(db.changeEpoch).toBeInstanceOf(NotifiedEpoch);
        return;
      }
      expect(db.changeEpoch).toBeInstanceOf(WriteEpoch);
      const epoch = db.changeEpoch;
      const moves = async (what: () => Promise<unknown>): Promise<boolean> => {
        const before = epoch.current();
        await what();
        return epoch.current() !== before;
      };
      const session = await db.prisma.session.create({ data: {} });
      // Reads: Prisma's, and the hot-path reads (a SELECT), however written.
      expect(await moves(() => db.prisma.session.findMany({ where: { id: session.id } }))).toBe(false);
      expect(await moves(() => db.prisma.auditEvent.count())).toBe(false);
      expect(await moves(() => db.query('SELECT 1 AS one', []))).toBe(false);
      expect(await moves(() => db.query('\n  select $1::text AS id', [session.id]))).toBe(false);
      // Writes: Prisma's, its transactions and raw statements, and each hot-path statement.
      expect(
        await moves(() => db.prisma.session.update({ where: { id: session.id }, data: { title: 'x' } })),
      ).toBe(true);
      expect(
        await moves(() =>
          db.prisma.$transaction(async (tx) => tx.session.findUnique({ where: { id: session.id } })),
        ),
      ).toBe(true);
      expect(await moves(() => db.prisma.$executeRawUnsafe(`UPDATE session SET title = 'y'`))).toBe(true);
      expect(await moves(() => db.executeText(`UPDATE session SET title = 'z'`))).toBe(true);
      expect(await moves(() => db.execute('UPDATE session SET title = $1', ['w']))).toBe(true);
      expect(
        await moves(() =>
          db.query(
            `WITH changed AS (UPDATE session SET title = 'v' RETURNING id) SELECT count(*)::text AS n FROM changed`,
            [],
          ),
        ),
      ).toBe(true);
      // An insert or COPY into one named table moves that table's readers and readers of everything, not
      // the readers of other tables.
      const gate = ['session_grant'];
      const moved = async (what: () => Promise<unknown>) => {
        const before = [epoch.current(), epoch.current(['audit_event']), epoch.current(gate)];
        await what();
        return [epoch.current(), epoch.current(['audit_event']), epoch.current(gate)].map(
          (value, index) => value !== before[index],
        );
      };
      const rows = new BinaryCopyRows();
      rows.row(6).text('test').text('system').text('ok').text('p').text('h').int8(1n);
      expect(
        await moved(() =>
          db.copyRows!(
            'audit_event',
            ['kind', 'actor', 'outcome', 'prev_hash', 'hash', 'chain_seq'],
            rows.finish(),
          ),
        ),
      ).toEqual([true, true, false]);
      expect(
        await moved(() =>
          db.executeText(
            `INSERT INTO audit_event (kind, actor, outcome, prev_hash, hash, chain_seq) VALUES ('test', 'system', 'ok', 'h', 'h2', 2)`,
            { table: 'audit_event' },
          ),
        ),
      ).toEqual([true, true, false]);
      // Not named: it may write anything.
      expect(
        await moved(() =>
          db.executeText(
            `INSERT INTO audit_event (kind, actor, outcome, prev_hash, hash, chain_seq) VALUES ('test', 'system', 'ok', 'h2', 'h3', 3)`,
          ),
        ),
      ).toEqual([true, true, true]);
      expect(await db.prisma.auditEvent.count()).toBe(3);
    },
  );
});
