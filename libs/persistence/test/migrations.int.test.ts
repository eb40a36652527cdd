import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DEFAULT_MIGRATIONS_DIR, loadCommittedMigrations } from '../src/committed-migrations.js';
import { openDatabase } from '../src/create-database.js';
import type { Database } from '../src/database.js';
import { MigrationChecksumMismatchError } from '../src/errors/migration-checksum-mismatch-error.js';
import { MigrationFailedError } from '../src/errors/migration-failed-error.js';
import { BACKENDS, type EmptyDatabase } from './backends.js';
import { copyMigrations, makeTempDir } from './temp-dir.js';

// A new PGlite cluster takes seconds to initialise on a loaded machine; jest's project-level testTimeout is not applied.
jest.setTimeout(60_000);

const TABLES = [
  'api_token',
  'approval',
  'artifact',
  'artifact_session',
  'audit_event',
  'hand_instance',
  'hand_run',
  'job',
  'job_event',
  'memory_document',
  'message',
  'rate_limit_counter',
  'reminder_notification',
  'routine',
  'routine_fire',
  'secret',
  'session',
  'session_grant',
  'tool_call_claim',
  'turn_lease',
];

interface MigrationRecord {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
}

async function migrationRecords(db: Database): Promise<MigrationRecord[]> {
  return db.prisma.$queryRawUnsafe<MigrationRecord[]>(
    'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
  );
}

async function tableNames(db: Database): Promise<string[]> {
  const rows = await db.prisma.$queryRawUnsafe<{ table_name: string }[]>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
  );
  return rows.map((row) => row.table_name);
}

async function withDatabase<T>(
  database: EmptyDatabase,
  work: (db: Database) => Promise<T>,
  migrationsDir?: string,
): Promise<T> {
  const db = await openDatabase(database.config, { migrationsDir });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

describe.each(BACKENDS)('migrations on $label', (backend) => {
  let database: EmptyDatabase;
  let names: string[];
  let scratch: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    database = await backend.create();
    scratch = await makeTempDir('migrations');
    names = (await loadCommittedMigrations()).map((migration) => migration.name);
  });

  afterAll(async () => {
    await database.dispose();
    await scratch.remove();
  });

  it('applies every committed migration to an empty database and records it the way Prisma does', async () => {
    // Later migrations may follow; these two come first.
    expect(names.slice(0, 2)).toEqual(['20261130110000_0001_init', '20261130110100_0002_agent']);
    await withDatabase(database, async (db) => {
      expect(db.kind).toBe(backend.name);
      expect(db.migrations).toEqual({ applied: names, alreadyApplied: [], unknownApplied: [] });
      expect(await tableNames(db)).toEqual(['_prisma_migrations', ...TABLES]);
      const records = await migrationRecords(db);
      expect(records.map((record) => record.migration_name)).toEqual(names);
      for (const record of records) {
        const file = await readFile(join(DEFAULT_MIGRATIONS_DIR, record.migration_name, 'migration.sql'));
        expect(record.checksum).toBe(createHash('sha256').update(file).digest('hex'));
        expect(record.finished_at).toBeInstanceOf(Date);
        expect(record.rolled_back_at).toBeNull();
        expect(record.applied_steps_count).toBe(1);
      }
    });
  });

  it('does nothing when run again', async () => {
    await withDatabase(database, async (db) => {
      expect(db.migrations).toEqual({ applied: [], alreadyApplied: names, unknownApplied: [] });
      expect(await migrationRecords(db)).toHaveLength(names.length);
    });
  });

  it('refuses to start when an applied migration file was edited', async () => {
    const dir = await copyMigrations(join(scratch.path, 'edited'));
    await appendFile(join(dir, names[0]!, 'migration.sql'), '\n-- an innocent-looking edit\n');
    const opening = openDatabase(database.config, { migrationsDir: dir });
    await expect(opening).rejects.toBeInstanceOf(MigrationChecksumMismatchError);
    await expect(opening).rejects.toMatchObject({
      code: 'INTEGRITY_MISMATCH',
      details: { migrationName: names[0] },
    });
  });

  it('refuses to start when the recorded checksum was tampered with', async () => {
    await withDatabase(database, (db) =>
      db.prisma.$executeRawUnsafe(
        'UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2',
        '0'.repeat(64),
        names[1],
      ),
    );
    await expect(openDatabase(database.config)).rejects.toMatchObject({
      name: 'MigrationChecksumMismatchError',
      details: { migrationName: names[1], appliedChecksum: '0'.repeat(64) },
    });
    // Restore the true checksum through an empty migrations folder, which checks nothing.
    const { checksum } = (await loadCommittedMigrations()).find((migration) => migration.name === names[1])!;
    const dir = join(scratch.path, 'only-init');
    await mkdir(dir);
    await withDatabase(
      database,
      (db) =>
        db.prisma.$executeRawUnsafe(
          'UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2',
          checksum,
          names[1],
        ),
      dir,
    );
  });

  it('accepts a file whose line endings were converted to CRLF, like Prisma', async () => {
    const dir = await copyMigrations(join(scratch.path, 'crlf'));
    const file = join(dir, names[0]!, 'migration.sql');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/\n/g, '\r\n'));
    await withDatabase(database, async (db) => expect(db.migrations.applied).toEqual([]), dir);
  });

  it('rolls a failing migration back entirely, records nothing and applies it once fixed', async () => {
    const dir = await copyMigrations(join(scratch.path, 'broken'));
    const broken = join(dir, '20261201000000_0003_broken');
    await mkdir(broken);
    await writeFile(
      join(broken, 'migration.sql'),
      'CREATE TABLE "half_done" ("id" INTEGER);\nSELECT * FROM "no_such_table";\n',
    );
    const opening = openDatabase(database.config, { migrationsDir: dir });
    await expect(opening).rejects.toBeInstanceOf(MigrationFailedError);
    await expect(opening).rejects.toMatchObject({ details: { migrationName: '20261201000000_0003_broken' } });

    await withDatabase(database, async (db) => {
      expect(await tableNames(db)).not.toContain('half_done');
      expect(await migrationRecords(db)).toHaveLength(names.length);
    });

    await writeFile(join(broken, 'migration.sql'), 'CREATE TABLE "half_done" ("id" INTEGER);\n');
    await withDatabase(
      database,
      async (db) => {
        expect(db.migrations.applied).toEqual(['20261201000000_0003_broken']);
        expect(await tableNames(db)).toContain('half_done');
      },
      dir,
    );
  });
});
