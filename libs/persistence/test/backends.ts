import type { DatabaseConfig } from '../src/database-config.js';
import { createPostgresTestDatabase } from './postgres-test-database.js';
import { makeTempDir } from './temp-dir.js';

/** A fresh, empty database of one kind, and how to throw it away. */
export interface EmptyDatabase {
  readonly config: DatabaseConfig;
  dispose(): Promise<void>;
}

/** The two databases Talon supports, each created empty: a new PostgreSQL database and a new PGlite directory. */
export const BACKENDS: ReadonlyArray<{ name: 'postgres' | 'pglite'; create(): Promise<EmptyDatabase> }> = [
  {
    name: 'postgres',
    async create() {
      const database = await createPostgresTestDatabase();
      return { config: { kind: 'postgres', url: database.url }, dispose: database.drop };
    },
  },
  {
    name: 'pglite',
    async create() {
      const dir = await makeTempDir('pglite');
      return { config: { kind: 'pglite', dataDir: `${dir.path}/data` }, dispose: dir.remove };
    },
  },
];
