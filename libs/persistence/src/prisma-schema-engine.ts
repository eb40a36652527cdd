import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import * as engineBindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import type {
  DiagnoseMigrationHistoryOutput,
  MigrationList,
  SchemaEngine,
} from '@prisma/schema-engine-wasm/schema_engine_bg';
import { DEFAULT_MIGRATIONS_DIR, loadCommittedMigrations } from './committed-migrations.js';

/** The schema the generated client and the committed migrations must agree with. */
export const DEFAULT_SCHEMA_PATH = join(DEFAULT_MIGRATIONS_DIR, '..', 'schema.prisma');

const NO_FILTERS = { externalTables: [], externalEnums: [] };

let loaded: Promise<void> | undefined;

/**
 * Prisma's schema engine compiled to WebAssembly, driven through a driver adapter: it needs no native
 * engine download, so `migrate diff` and migration-history checks work offline. Development tooling only
 * (authoring the next migration, drift tests); the start-up path uses `runMigrations`.
 */
export class PrismaSchemaEngine {
  private constructor(
    private readonly engine: SchemaEngine,
    private readonly schema: { path: string; content: string },
    private readonly migrationsDir: string,
  ) {}

  /** Opens the engine over `adapter` (its database, and its shadow database for replaying migrations). */
  static async open(
    adapter: SqlMigrationAwareDriverAdapterFactory,
    options: { schemaPath?: string; migrationsDir?: string } = {},
  ): Promise<PrismaSchemaEngine> {
    await (loaded ??= instantiateEngine());
    const path = options.schemaPath ?? DEFAULT_SCHEMA_PATH;
    const content = await readFile(path, 'utf8');
    const engine = await engineBindings.SchemaEngine.new(
      { datamodels: [[path, content]] },
      () => undefined,
      bindMigrationAwareSqlAdapterFactory(adapter),
    );
    return new PrismaSchemaEngine(engine, { path, content }, options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  }

  /**
   * SQL that would bring a database built by the committed migrations to the schema, or null when they
   * agree: the body of the next migration, and a drift check. Replays the migrations on the shadow database.
   */
  async diffMigrationsToSchema(): Promise<string | null> {
    const result = await this.engine.diff({
      from: { tag: 'migrations', ...(await this.migrationList()) },
      to: { tag: 'schemaDatamodel', files: [this.schema] },
      script: true,
      exitCode: true,
      filters: NO_FILTERS,
    });
    return result.exitCode === 0 ? null : (result.stdout ?? '');
  }

  /** SQL creating the whole schema from nothing, as `prisma migrate diff --from-empty` prints it. */
  async diffEmptyToSchema(): Promise<string> {
    const result = await this.engine.diff({
      from: { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [this.schema] },
      script: true,
      exitCode: null,
      filters: NO_FILTERS,
    });
    return result.stdout ?? '';
  }

  /** Prisma's own reading of the database's migration history against the committed migrations. */
  async diagnoseMigrationHistory(): Promise<DiagnoseMigrationHistoryOutput> {
    return this.engine.diagnoseMigrationHistory({
      migrationsList: await this.migrationList(),
      optInToShadowDatabase: false,
      filters: NO_FILTERS,
    });
  }

  close(): void {
    this.engine.free();
  }

  private async migrationList(): Promise<MigrationList> {
    const migrations = await loadCommittedMigrations(this.migrationsDir);
    const lockfilePath = join(this.migrationsDir, 'migration_lock.toml');
    return {
      baseDir: this.migrationsDir,
      lockfile: { path: lockfilePath, content: await readFile(lockfilePath, 'utf8').catch(() => null) },
      shadowDbInitScript: '',
      migrationDirectories: migrations.map((migration) => ({
        path: migration.name,
        migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: migration.sql } },
      })),
    };
  }
}

/** The package's own entry imports the .wasm as an ES module, which Node cannot do: instantiate it by hand. */
async function instantiateEngine(): Promise<void> {
  const bindingsPath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const bytes = await readFile(join(dirname(bindingsPath), 'schema_engine_bg.wasm'));
  const { instance } = await webAssembly().instantiate(bytes, { './schema_engine_bg.js': engineBindings });
  const bindings = engineBindings as unknown as { __wbg_set_wasm(exports: object): void };
  bindings.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
}

/** The global WebAssembly object, typed locally: the project's `lib` (ES2023, no DOM) does not declare it. */
function webAssembly(): {
  instantiate(
    bytes: Uint8Array,
    imports: object,
  ): Promise<{ instance: { exports: Record<string, unknown> } }>;
} {
  return (globalThis as unknown as { WebAssembly: ReturnType<typeof webAssembly> }).WebAssembly;
}
