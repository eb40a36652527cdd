import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PGlite } from '@electric-sql/pglite';
import { PgliteStatementError } from '../src/errors/pglite-statement-error.js';
import { BinaryCopyRows } from '../src/binary-copy-rows.js';
import { PgliteSimpleQuery } from '../src/pglite-simple-query.js';
import { isUniqueViolation } from '../src/unique-violation.js';
import { createPgliteFromTemplate } from './pglite-template.js';

/** Statements sent as one simple-query message and read back without PGlite's result parser. */
describe('PgliteSimpleQuery', () => {
  let db: PGlite;
  let simple: PgliteSimpleQuery;

  beforeAll(async () => {
    db = await createPgliteFromTemplate();
    simple = new PgliteSimpleQuery(db);
    await db.exec('CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL)');
  });

  afterAll(async () => {
    await db?.close();
  });

  it('runs statements and reports the rows the last one changed', async () => {
    expect(await simple.run("INSERT INTO item VALUES (1, 'a'), (2, 'b'), (3, 'c')")).toEqual({
      affectedRows: 3,
    });
    expect(await simple.run("UPDATE item SET name = 'z' WHERE id > 1")).toEqual({ affectedRows: 2 });
    expect(await simple.run('CREATE INDEX item_name ON item (name)')).toEqual({ affectedRows: 0 });
    expect(await simple.run("INSERT INTO item VALUES (4, 'd'); DELETE FROM item WHERE id = 4")).toEqual({
      affectedRows: 1,
    });
    const rows = await db.query<{ id: number; name: string }>('SELECT id, name FROM item ORDER BY id');
    expect(rows.rows).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'z' },
      { id: 3, name: 'z' },
    ]);
  });

  it('throws a refused statement as a driver error with its SQLSTATE, and the next statement runs', async () => {
    const refused = await simple.run("INSERT INTO item VALUES (1, 'again')").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PgliteStatementError);
    expect(refused).toMatchObject({ code: '23505', constraint: 'item_pkey', table: 'item' });
    expect((refused as PgliteStatementError).detail).toContain('(id)=(1)');
    expect(isUniqueViolation(refused)).toBe(true);
    await expect(simple.run('SELECT * FROM missing_table')).rejects.toMatchObject({ code: '42P01' });
    await expect(simple.run('NOT SQL AT ALL')).rejects.toMatchObject({ code: '42601' });
    expect(await simple.run("INSERT INTO item VALUES (5, 'e')")).toEqual({ affectedRows: 1 });
  });

  it('copies binary COPY input: hostile text round-trips exactly, a refused row refuses all, no input is left behind', async () => {
    await db.exec('CREATE TABLE copied (id int PRIMARY KEY, name text, note text)');
    const hostile = [
      'tab\there',
      'line\nbreak and \r return',
      'back\\slash \\N \\. \\t',
      '\\.',
      '\\N',
      "it's '); DROP TABLE copied; --",
      'ünïcødé 漢字 🦅',
      '',
    ];
    const copy = (rows: Uint8Array) => simple.copyRows('copied', ['id', 'name', 'note'], rows);
    const input = (rows: ReadonlyArray<[number, string | null, string | null]>) => {
      const built = new BinaryCopyRows();
      for (const [id, name, note] of rows) built.row(3).int4(id).text(name).text(note);
      return built.finish();
    };
    expect(await copy(input(hostile.map((text, index) => [index, text, index % 2 ? null : text])))).toEqual({
      affectedRows: hostile.length,
    });
    const rows = await db.query<{ id: number; name: string; note: string | null }>(
      'SELECT id, name, note FROM copied ORDER BY id',
    );
    expect(rows.rows).toEqual(
      hostile.map((text, index) => ({ id: index, name: text, note: index % 2 ? null : text })),
    );
    // A duplicate key refuses the whole input as a unique violation; nothing of it is stored.
    const refused = await copy(
      input([
        [100, 'new', null],
        [0, 'again', null],
      ]),
    ).catch((error: unknown) => error);
    expect(isUniqueViolation(refused)).toBe(true);
    expect((await db.query('SELECT 1 FROM copied WHERE id = 100')).rows).toEqual([]);
    // The input lived in PGlite's in-memory file system, and only for its statement.
    expect(db.Module.FS.readdir('/tmp').filter((name: string) => name.startsWith('talon-'))).toEqual([]);
    expect(db.Module.FS.lookupPath('/tmp', {}).node.mount.type).toBe(db.Module.MEMFS);
    expect(await simple.run("INSERT INTO copied VALUES (200, 'after', NULL)")).toEqual({ affectedRows: 1 });
  });

  it('waits for another caller’s open transaction instead of running inside it', async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const rolledBack = db
      .transaction(async (tx) => {
        await tx.exec("INSERT INTO item VALUES (10, 'in the transaction')");
        inside();
        await held;
        await tx.rollback();
      })
      .catch(() => undefined);
    await entered;
    const outside = simple.run("INSERT INTO item VALUES (11, 'outside')");
    const order: string[] = [];
    void outside.then(() => order.push('outside'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    order.push('released');
    release();
    await rolledBack;
    await outside;
    expect(order).toEqual(['released', 'outside']);
    const rows = await db.query<{ id: number }>('SELECT id FROM item WHERE id >= 10 ORDER BY id');
    // Had it run inside, the rollback would have taken row 11 with row 10.
    expect(rows.rows).toEqual([{ id: 11 }]);
  });

  it('carries text in any script and large statements', async () => {
    const name = `名前 — ${'x'.repeat(200_000)}`;
    expect(await simple.run(`INSERT INTO item VALUES (20, '${name}')`)).toEqual({ affectedRows: 1 });
    const rows = await db.query<{ name: string }>('SELECT name FROM item WHERE id = 20');
    expect(rows.rows[0]!.name).toBe(name);
  });
});
