import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { openDatabase } from '../src/create-database.js';
import { isUniqueViolation } from '../src/unique-violation.js';
import { BACKENDS, type EmptyDatabase } from './backends.js';
import { copyMigrationsBefore, makeTempDir } from './temp-dir.js';

// A new PGlite cluster takes seconds to initialise on a loaded machine.
jest.setTimeout(60_000);

const CHAIN_SEQ_MIGRATION = '20261206090000_0011_audit_chain_seq';
/** The migration after which rows have no `id` (0013): this test stops before it. */
const CHAIN_KEY_MIGRATION = '20261206150000_0013_audit_chain_key';

describe.each(BACKENDS)('the audit chain position migration on $label', (backend) => {
  let database: EmptyDatabase;
  let scratch: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    database = await backend.create();
    scratch = await makeTempDir('chain-seq');
  });

  afterAll(async () => {
    await database.dispose();
    await scratch.remove();
  });

  it('numbers the rows of an existing chain in id order, then refuses a second row at one position', async () => {
    // The database as it was before this migration, then migrated up to the one that dropped `id`.
    const before = await copyMigrationsBefore(join(scratch.path, 'before'), CHAIN_SEQ_MIGRATION);
    const upTo = await copyMigrationsBefore(join(scratch.path, 'up-to'), CHAIN_KEY_MIGRATION);
    const old = await openDatabase(database.config, { migrationsDir: before });
    try {
      // Ids with a gap (a failed insert takes ids too): positions follow the order, not the ids.
      for (const [id, prev, hash] of [
        [5, 'g', 'h1'],
        [9, 'h1', 'h2'],
        [10, 'h2', 'h3'],
      ] as const)
        await old.prisma.$executeRawUnsafe(
          `INSERT INTO audit_event (id, kind, actor, outcome, prev_hash, hash) VALUES (${id}, 'test', 'system', 'ok', '${prev}', '${hash}')`,
        );
    } finally {
      await old.close();
    }

    const db = await openDatabase(database.config, { migrationsDir: upTo });
    try {
      expect(db.migrations.applied[0]).toBe(CHAIN_SEQ_MIGRATION);
      const rows = await db.query<{ id: string; hash: string; chain_seq: string }>(
        'SELECT id::text, hash, chain_seq::text FROM audit_event ORDER BY audit_event.id',
        [],
      );
      expect(rows.map((row) => [Number(row.id), row.hash, BigInt(row.chain_seq)])).toEqual([
        [5, 'h1', 1n],
        [9, 'h2', 2n],
        [10, 'h3', 3n],
      ]);
      const fork = await db.prisma
        .$executeRawUnsafe(
          "INSERT INTO audit_event (kind, actor, outcome, prev_hash, hash, chain_seq) VALUES ('test', 'system', 'ok', 'h2', 'h3b', 3)",
        )
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(isUniqueViolation(fork)).toBe(true);
      await db.prisma.$executeRawUnsafe(
        "INSERT INTO audit_event (kind, actor, outcome, prev_hash, hash, chain_seq) VALUES ('test', 'system', 'ok', 'h3', 'h4', 4)",
      );
      expect(await db.prisma.auditEvent.count()).toBe(4);
    } finally {
      await db.close();
    }
  });
});
