import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { openDatabase } from '../src/create-database.js';
import { isUniqueViolation } from '../src/unique-violation.js';
import { BACKENDS, type EmptyDatabase } from './backends.js';
import { copyMigrationsBefore, makeTempDir } from './temp-dir.js';

// A new PGlite cluster takes seconds to initialise on a loaded machine.
jest.setTimeout(60_000);

const CHAIN_KEY_MIGRATION = '20261206150000_0013_audit_chain_key';

describe.each(BACKENDS)('the audit chain key migration on $label', (backend) => {
  let database: EmptyDatabase;
  let scratch: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    database = await backend.create();
    scratch = await makeTempDir('chain-key');
  });

  afterAll(async () => {
    await database.dispose();
    await scratch.remove();
  });

  it('keys existing rows by their chain position, keeps their data as JSON text and refuses a fork', async () => {
    const before = await copyMigrationsBefore(join(scratch.path, 'before'), CHAIN_KEY_MIGRATION);
    const old = await openDatabase(database.config, { migrationsDir: before });
    try {
      // Ids with gaps, as a refused insert left them; data as jsonb stored it.
      for (const [id, seq, data] of [
        [7, 1, `{"b": 1, "a": [1, "x"]}`],
        [12, 2, `{}`],
      ] as const)
        await old.executeText(
          `INSERT INTO audit_event (id, kind, actor, outcome, prev_hash, hash, chain_seq, data)
           VALUES (${id}, 'test', 'system', 'ok', 'p${seq}', 'h${seq}', ${seq}, '${data}')`,
        );
    } finally {
      await old.close();
    }

    const db = await openDatabase(database.config);
    try {
      expect(db.migrations.applied[0]).toBe(CHAIN_KEY_MIGRATION);
      const rows = await db.prisma.auditEvent.findMany({ orderBy: { chainSeq: 'asc' } });
      expect(rows.map((row) => [row.chainSeq, row.hash, JSON.parse(row.data)])).toEqual([
        [1n, 'h1', { a: [1, 'x'], b: 1 }],
        [2n, 'h2', {}],
      ]);
      const columns = await db.query<{ name: string; type: string }>(
        "SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_name = 'audit_event'",
        [],
      );
      expect(columns.map((column) => column.name)).not.toContain('id');
      expect(columns.find((column) => column.name === 'data')?.type).toBe('text');
      // One unique index on the position (the key), none beside it.
      const indexes = await db.query<{ name: string; definition: string }>(
        "SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'audit_event' ORDER BY indexname",
        [],
      );
      expect(indexes.filter((index) => /UNIQUE/.test(index.definition)).map((index) => index.name)).toEqual([
        'audit_event_pkey',
        'audit_event_record_id_key',
      ]);
      expect(indexes.find((index) => index.name === 'audit_event_pkey')?.definition).toMatch(
        /\(chain_seq\)$/,
      );
      const fork = await db
        .executeText(
          "INSERT INTO audit_event (kind, actor, outcome, prev_hash, hash, chain_seq) VALUES ('test', 'system', 'ok', 'h1', 'h2b', 2)",
        )
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(isUniqueViolation(fork)).toBe(true);
      await db.executeText(
        "INSERT INTO audit_event (kind, actor, outcome, prev_hash, hash, chain_seq) VALUES ('test', 'system', 'ok', 'h2', 'h3', 3)",
      );
      expect(await db.prisma.auditEvent.findUnique({ where: { chainSeq: 3n } })).toMatchObject({
        data: '{}',
      });
    } finally {
      await db.close();
    }
  });
});
