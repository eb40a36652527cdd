import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One migration committed under `prisma/migrations/<timestamp>_<name>/migration.sql`. */
export interface CommittedMigration {
  /** The folder name, which Prisma records as `migration_name`. */
  readonly name: string;
  readonly sql: string;
  /** sha256 (hex) of the script with line endings normalised to LF, as Prisma computes it. */
  readonly checksum: string;
}

/**
 * The migrations shipped with this library. Resolved from this file's location, so it is the same folder
 * from `src/` (tests) and `dist/` (runtime): the `prisma/` folder must ship next to `dist/`.
 */
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations/', import.meta.url));

/** sha256 hex of a migration script the way Prisma records it (CRLF counted as LF). */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
}

/** Whether a recorded checksum matches the script, accepting the raw or the LF-normalised form like Prisma. */
export function checksumMatches(sql: string, recorded: string): boolean {
  const raw = createHash('sha256').update(sql, 'utf8').digest('hex');
  return recorded === raw || recorded === migrationChecksum(sql);
}

/** Reads every `<dir>/<name>/migration.sql`, ordered by folder name (the timestamp prefix). */
export async function loadCommittedMigrations(
  dir: string = DEFAULT_MIGRATIONS_DIR,
): Promise<CommittedMigration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const migrations: CommittedMigration[] = [];
  for (const name of names) {
    const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
    migrations.push({ name, sql, checksum: migrationChecksum(sql) });
  }
  return migrations;
}
