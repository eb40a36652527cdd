import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../src/create-database.js';
import type { Database } from '../src/database.js';
import { preparedStatementName } from '../src/prepared-statements.js';
import { isUniqueViolation } from '../src/unique-violation.js';
import { BACKENDS, type EmptyDatabase } from './backends.js';

jest.setTimeout(60_000);

const HOSTILE = ["it's", "'); DROP TABLE session; --", "back\\slash \\' E'x'", '$1 $$ 漢字 🦅', ''];

describe.each(BACKENDS)('Database.query and execute run prepared statements on $label', (backend) => {
  let database: EmptyDatabase;
  let db: Database;

  beforeAll(async () => {
    database = await backend.create();
    db = await openDatabase(database.config);
  });

  afterAll(async () => {
    await db?.close();
    await database.dispose();
  });

  /** Whether the connection a read runs on holds `sql` prepared (PGlite: its only session). */
  const isPrepared = async (sql: string): Promise<boolean> => {
    const rows = await db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM pg_prepared_statements WHERE name = $1::text',
      [preparedStatementName(sql)],
    );
    return rows[0]!.n === '1';
  };

  it('prepares a statement on its first use and reads what it reads unprepared', async () => {
    const read = 'SELECT $1::text AS value, length($1::text)::text AS chars';
    for (const text of HOSTILE) {
      expect(await db.query(read, [text])).toEqual([{ value: text, chars: String([...text].length) }]);
    }
    if (backend.name === 'pglite') expect(await isPrepared(read)).toBe(true);
  });

  it('writes with execute, counting the rows it changed, and keeps a unique violation recognisable', async () => {
    const id = randomUUID();
    const insert = 'INSERT INTO session (id, title, updated_at) VALUES ($1::text::uuid, $2::text, now())';
    expect(await db.execute(insert, [id, HOSTILE[1]!])).toBe(1);
    const duplicate = await db.execute(insert, [id, 'again']).catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(await db.query('SELECT title FROM session WHERE id = $1::text::uuid', [id])).toEqual([
      { title: HOSTILE[1] },
    ]);
    expect(
      await db.execute('UPDATE session SET title = $2::text WHERE id = $1::text::uuid', [id, HOSTILE[2]!]),
    ).toBe(1);
    expect((await db.prisma.session.findUnique({ where: { id } }))?.title).toBe(HOSTILE[2]);
  });

  it('runs a statement whose parameters it cannot inline as it is (a boolean, an array)', async () => {
    expect(await db.query('SELECT ($1::boolean)::text AS flag', [true])).toEqual([{ flag: 'true' }]);
    expect(await db.query('SELECT array_length($1::text[], 1)::text AS n', [['a', 'b']])).toEqual([
      { n: '2' },
    ]);
  });
});
