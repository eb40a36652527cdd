import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { pgliteAdapterView } from '../src/pglite-adapter-view.js';
import { createPgliteFromTemplate } from './pglite-template.js';

/** The adapter's view of PGlite: its parsers installed once, results as the adapter would parse them. */
describe('pgliteAdapterView', () => {
  let db: PGlite;
  let prisma: PrismaClient;
  const sent: Array<Record<string, unknown> | undefined> = [];

  beforeAll(async () => {
    db = await createPgliteFromTemplate();
    const query = db.query.bind(db);
    // Records what reaches PGlite, so the test sees whether parsers still travel with each query.
    db.query = ((sql: string, params?: unknown[], options?: Record<string, unknown>) => {
      sent.push(options);
      return query(sql, params, options);
    }) as PGlite['query'];
    prisma = new PrismaClient({ adapter: new PrismaPGlite(pgliteAdapterView(db)) });
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.close();
  });

  it('parses timestamps, JSON, numerics and bigints as the adapter does, without sending parsers per query', async () => {
    const rows = await prisma.$queryRaw<
      Array<{ at: Date; doc: unknown; amount: unknown; big: bigint; list: unknown }>
    >`SELECT '2026-12-01T10:00:00.123Z'::timestamptz AS at, '{"a":[1,2]}'::jsonb AS doc, 12.50::numeric AS amount,
             9007199254740993::int8 AS big, ARRAY['{"b":1}'::jsonb] AS list`;
    expect(rows[0]!.at).toEqual(new Date('2026-12-01T10:00:00.123Z'));
    expect(rows[0]!.doc).toEqual({ a: [1, 2] });
    expect(String(rows[0]!.amount)).toBe('12.5');
    expect(rows[0]!.big).toBe(9007199254740993n);
    expect(rows[0]!.list).toEqual([{ b: 1 }]);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((options) => options?.parsers === undefined)).toBe(true);
  });

  it('keeps transactions working: results parsed, a failure rolled back', async () => {
    const [first, second] = await prisma.$transaction(async (tx) => [
      await tx.$queryRaw<Array<{ n: number }>>`SELECT 1::int AS n`,
      await tx.$queryRaw<Array<{ at: Date }>>`SELECT now() AS at`,
    ]);
    expect(first).toEqual([{ n: 1 }]);
    expect((second as Array<{ at: Date }>)[0]!.at).toBeInstanceOf(Date);
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.$executeRaw`CREATE TABLE IF NOT EXISTS view_probe (id int)`;
        await tx.$executeRaw`INSERT INTO view_probe VALUES (1)`;
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await prisma.$queryRaw`SELECT to_regclass('view_probe')::text AS name`).toEqual([{ name: null }]);
  });
});
