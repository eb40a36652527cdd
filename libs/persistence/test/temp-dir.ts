import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MIGRATIONS_DIR } from '../src/committed-migrations.js';

/** A fresh temporary directory and its removal. */
export async function makeTempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `talon-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Copies the committed migrations into `dir/migrations`, so a test can edit or extend them. */
export async function copyMigrations(dir: string): Promise<string> {
  const target = join(dir, 'migrations');
  await cp(DEFAULT_MIGRATIONS_DIR, target, { recursive: true });
  return target;
}

/** The committed migrations before `first` (the database as it was then), copied into `dir/migrations`. */
export async function copyMigrationsBefore(dir: string, first: string): Promise<string> {
  const target = await copyMigrations(dir);
  for (const name of await readdir(target))
    if (name >= first && name !== 'migration_lock.toml') await rm(join(target, name), { recursive: true });
  return target;
}
