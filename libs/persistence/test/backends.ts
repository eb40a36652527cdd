import type { DatabaseConfig } from '../src/database-config.js';
import { copyPgliteTemplate } from './pglite-template.js';
import { createPostgresTestDatabase } from './postgres-test-database.js';
import { makeTempDir } from './temp-dir.js';

/** A fresh, empty database of one kind, and how to throw it away. */
export interface EmptyDatabase {
  readonly config: DatabaseConfig;
  dispose(): Promise<void>;
}

/**
 * The databases Talon supports, each created empty: a new PostgreSQL database, and a new PGlite directory
 * (a cluster fresh from initdb, copied from a template) with PGlite in the calling thread and in a thread of
 * its own.
 */
export const BACKENDS: ReadonlyArray<{
  name: 'postgres' | 'pglite';
  /** For test titles: the name, and for PGlite where it runs. */
  label: string;
  create(): Promise<EmptyDatabase>;
}> = [
  {
    name: 'postgres',
    label: 'postgres',
    async create() {
      const database = await createPostgresTestDatabase();
      return { config: { kind: 'postgres', url: database.url }, dispose: database.drop };
    },
  },
  {
    name: 'pglite',
    label: 'pglite',
    async create() {
      const dir = await makeTempDir('pglite');
      await copyPgliteTemplate(`${dir.path}/data`);
      return { config: { kind: 'pglite', dataDir: `${dir.path}/data` }, dispose: dir.remove };
    },
  },
  {
    name: 'pglite',
    label: 'pglite in its own thread',
    async create() {
      const dir = await makeTempDir('pglite-thread');
      await copyPgliteTemplate(`${dir.path}/data`);
      return { config: { kind: 'pglite', dataDir: `${dir.path}/data`, thread: true }, dispose: dir.remove };
    },
  },
];
