import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PGlite } from '@electric-sql/pglite';
import { BinaryCopyRows } from '../src/binary-copy-rows.js';
import { PgliteSimpleQuery } from '../src/pglite-simple-query.js';
import { createPgliteFromTemplate } from './pglite-template.js';

const COLUMNS = ['id', 'at', 'name', 'small', 'big', 'ref', 'doc'];

/** Binary COPY input read by PostgreSQL itself (PGlite): every type the audit log writes, NULLs, bounds. */
describe('BinaryCopyRows', () => {
  let db: PGlite;
  let simple: PgliteSimpleQuery;

  beforeAll(async () => {
    db = await createPgliteFromTemplate();
    simple = new PgliteSimpleQuery(db);
    await db.exec(`CREATE TABLE typed (id int PRIMARY KEY, at timestamptz, name text, small int,
      big bigint, ref uuid, doc jsonb)`);
  });

  afterAll(async () => {
    await db?.close();
  });

  it('stores each value as its column holds it', async () => {
    const at = [
      Date.parse('2026-12-06T06:23:28.194Z'),
      Date.parse('1999-12-31T23:59:59.999Z'), // before PostgreSQL's epoch
      Date.parse('1969-07-20T20:17:40.001Z'), // before the Unix epoch
    ];
    const long = 'x'.repeat(40_000); // past the first buffer: it grows
    const rows = new BinaryCopyRows()
      .row(7)
      .int4(1)
      .timestamptz(at[0]!)
      .text('tab\tnewline\n back\\slash \\N ünïcødé 🦅')
      .int4(-2_147_483_648)
      .int8(9_223_372_036_854_775_807n)
      .uuid('01A24A05-8FC2-7276-B655-C262B522B51B')
      .jsonb('{"b":[1,2.5,"x"],"a":{"nested":true}}')
      .row(7)
      .int4(2)
      .timestamptz(at[1]!)
      .text(long)
      .int4(2_147_483_647)
      .int8(-9_223_372_036_854_775_808n)
      .uuid(null)
      .jsonb('{}')
      .row(7)
      .int4(3)
      .timestamptz(at[2]!)
      .text('')
      .null()
      .int8(null)
      .null()
      .jsonb(null);
    expect(await simple.copyRows('typed', COLUMNS, rows.finish())).toEqual({
      affectedRows: 3,
    });
    const stored = await db.query<Record<string, string | null>>(
      `SELECT id::text, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, name,
        small::text, big::text, ref::text, doc::text FROM typed ORDER BY id`,
    );
    expect(stored.rows).toEqual([
      {
        id: '1',
        at: '2026-12-06T06:23:28.194Z',
        name: 'tab\tnewline\n back\\slash \\N ünïcødé 🦅',
        small: '-2147483648',
        big: '9223372036854775807',
        ref: '01a24a05-8fc2-7276-b655-c262b522b51b',
        doc: '{"a": {"nested": true}, "b": [1, 2.5, "x"]}',
      },
      {
        id: '2',
        at: '1999-12-31T23:59:59.999Z',
        name: long,
        small: '2147483647',
        big: '-9223372036854775808',
        ref: null,
        doc: '{}',
      },
      { id: '3', at: '1969-07-20T20:17:40.001Z', name: '', small: null, big: null, ref: null, doc: null },
    ]);
  });

  it('stores short ASCII text byte for byte and anything else as UTF-8, on either side of the cut', async () => {
    const names = [
      'a'.repeat(256), // the longest text tried as ASCII
      'b'.repeat(257), // the shortest that is not
      `${'c'.repeat(255)}é`, // ASCII until its last character
      '\u007f\u0080', // the last ASCII character, then the first that is not
    ];
    const rows = new BinaryCopyRows();
    names.forEach((name, index) =>
      rows
        .row(7)
        .int4(4 + index) // 4–7: after the first test's rows, before the ids the last test checks
        .null()
        .text(name)
        .null()
        .null()
        .uuid('0193a4b2-7c1d-7e2f-8a3b-4c5d6e7f8091')
        .null(),
    );
    await simple.copyRows('typed', COLUMNS, rows.finish());
    const stored = await db.query<{ name: string; ref: string }>(
      'SELECT name, ref::text AS ref FROM typed WHERE id BETWEEN 4 AND 7 ORDER BY id',
    );
    expect(stored.rows.map((row) => row.name)).toEqual(names);
    expect(new Set(stored.rows.map((row) => row.ref))).toEqual(
      new Set(['0193a4b2-7c1d-7e2f-8a3b-4c5d6e7f8091']),
    );
  });

  it('refuses a value its column could not hold before anything is sent', () => {
    const rows = () => new BinaryCopyRows().row(1);
    expect(() => rows().int4(2_147_483_648)).toThrow(RangeError);
    expect(() => rows().int4(1.5)).toThrow(RangeError);
    expect(() => rows().int8(2n ** 63n)).toThrow(RangeError);
    expect(() => rows().uuid('not-a-uuid')).toThrow(TypeError);
    expect(() => rows().uuid('01a24a05-8fc2-7276-b655-c262b522b51b; DROP')).toThrow(TypeError);
    // 36 characters each, wrong in one place: a dash moved, a letter past f, a digit beyond ASCII.
    expect(() => rows().uuid('01a24a058-fc2-7276-b655-c262b522b51b')).toThrow(TypeError);
    expect(() => rows().uuid('01a24a05-8fc2-7276-b655-c262b522b51g')).toThrow(TypeError);
    expect(() => rows().uuid('01a24a05-8fc2-7276-b655-c262b522b51\u0661')).toThrow(TypeError);
    expect(() => rows().uuid('01a24a05-8fc2-7276-b655-c262b522b51b'.replace(/-/g, 'x'))).toThrow(TypeError);
    expect(() => rows().timestamptz(1.5)).toThrow(RangeError);
    expect(() => rows().text(7 as unknown as string)).toThrow(TypeError);
  });

  it('lets PostgreSQL refuse JSON that is not JSON, and a row with too few values', async () => {
    const badJson = new BinaryCopyRows().row(7).int4(10).null().null().null().null().null().jsonb('{"open":');
    await expect(simple.copyRows('typed', COLUMNS, badJson.finish())).rejects.toMatchObject({
      code: '22P02',
    });
    const short = new BinaryCopyRows().row(7).int4(11).null();
    await expect(simple.copyRows('typed', COLUMNS, short.finish())).rejects.toMatchObject({
      code: expect.stringMatching(/^22/),
    });
    expect((await db.query('SELECT 1 FROM typed WHERE id >= 10')).rows).toEqual([]);
  });
});
