import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import pg from 'pg';
import { openDatabase } from '../src/create-database.js';
import { DEFAULT_SCHEMA_PATH, PrismaSchemaEngine } from '../src/prisma-schema-engine.js';
import { createPgliteFromTemplate, copyPgliteTemplate } from './pglite-template.js';
import { createPostgresTestDatabase, type PostgresTestDatabase } from './postgres-test-database.js';
import { makeTempDir } from './temp-dir.js';

// A new PGlite cluster takes seconds to initialise on a loaded machine.
jest.setTimeout(60_000);

describe("Prisma's schema engine against the committed migrations", () => {
  let scratch: Awaited<ReturnType<typeof makeTempDir>>;
  let database: PostgresTestDatabase;

  beforeAll(async () => {
    scratch = await makeTempDir('drift');
    database = await createPostgresTestDatabase();
  });

  afterAll(async () => {
    await scratch.remove();
    await database.drop();
  });

  /**
   * The adapter's shadow database is a new in-memory PGlite each time (initdb, 3–5 s): here one loaded from
   * the template dump, closed afterwards (the adapter's own is never closed).
   */
  class TemplateShadowPGlite extends PrismaPGlite {
    readonly shadows: PGlite[] = [];

    override async connectToShadowDb() {
      const shadow = await createPgliteFromTemplate();
      this.shadows.push(shadow);
      return new PrismaPGlite(shadow).connect();
    }
  }

  /**
   * The engine replays the migrations on a shadow database: a fresh in-memory PGlite from the adapter.
   * (PrismaPg cannot stand in here: the wasm engine fails to describe a PostgreSQL 15 catalog — "Column type
   * 'char' could not be deserialized" — and PrismaPg's shadow database reuses the main one when configured
   * with a connection string.)
   */
  async function withEngineOnPglite<T>(
    work: (engine: PrismaSchemaEngine) => Promise<T>,
    schemaPath?: string,
  ): Promise<T> {
    const host = await createPgliteFromTemplate();
    const adapter = new TemplateShadowPGlite(host);
    const engine = await PrismaSchemaEngine.open(adapter, { schemaPath });
    try {
      return await work(engine);
    } finally {
      engine.close();
      await host.close();
      await Promise.all(adapter.shadows.map((shadow) => shadow.close()));
    }
  }

  it('finds no drift between the committed migrations and schema.prisma', async () => {
    await withEngineOnPglite(async (engine) => expect(await engine.diffMigrationsToSchema()).toBeNull());
  });

  it('reports the SQL of the missing migration when the schema gains a field', async () => {
    const schemaPath = join(scratch.path, 'schema.prisma');
    const schema = await readFile(DEFAULT_SCHEMA_PATH, 'utf8');
    await writeFile(
      schemaPath,
      schema.replace('  autonomous Boolean', '  pinned     Boolean @default(false)\n  autonomous Boolean'),
    );
    await withEngineOnPglite(async (engine) => {
      expect(await engine.diffMigrationsToSchema()).toMatch(
        /ALTER TABLE "session" ADD COLUMN\s+"pinned" BOOLEAN NOT NULL DEFAULT false/,
      );
    }, schemaPath);
  });

  it('reads the history our runner wrote into a PGlite directory as clean, and spots a tampered checksum', async () => {
    const dataDir = join(scratch.path, 'pglite');
    await copyPgliteTemplate(dataDir);
    const db = await openDatabase({ kind: 'pglite', dataDir });
    await db.close();

    const host = await PGlite.create(dataDir);
    const adapter = new TemplateShadowPGlite(host);
    const engine = await PrismaSchemaEngine.open(adapter);
    try {
      expect(await engine.diagnoseMigrationHistory()).toEqual({
        editedMigrationNames: [],
        failedMigrationNames: [],
        hasMigrationsTable: true,
        history: null,
      });
      await host.query(
        `UPDATE "_prisma_migrations" SET checksum = repeat('0', 64) WHERE migration_name LIKE '%0001_init'`,
      );
      expect((await engine.diagnoseMigrationHistory()).editedMigrationNames).toEqual([
        '20261130110000_0001_init',
      ]);
    } finally {
      engine.close();
      await host.close();
      await Promise.all(adapter.shadows.map((shadow) => shadow.close()));
    }
  });

  it('reads the history our runner wrote into PostgreSQL as clean', async () => {
    const db = await openDatabase({ kind: 'postgres', url: database.url });
    await db.close();
    const pool = new pg.Pool({ connectionString: database.url });
    const engine = await PrismaSchemaEngine.open(new PrismaPg(pool));
    try {
      expect(await engine.diagnoseMigrationHistory()).toEqual({
        editedMigrationNames: [],
        failedMigrationNames: [],
        hasMigrationsTable: true,
        history: null,
      });
    } finally {
      engine.close();
      await pool.end();
    }
  });
});
