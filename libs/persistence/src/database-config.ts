import { resolve } from 'node:path';
import { InvalidDatabaseConfigError } from './errors/invalid-database-config-error.js';
import { DEFAULT_PGLITE_SHARED_BUFFERS, PGLITE_SHARED_BUFFERS_PATTERN } from './pglite-settings.js';

/** Where the embedded database lives when neither TALON_PGLITE_DIR nor TALON_STATE_DIR is set (relative to the working directory). */
export const DEFAULT_PGLITE_DIR = '.talon/state/pglite';

/** PGlite keeps everything in memory (tests, throwaway runs) when its directory is set to this. */
export const PGLITE_IN_MEMORY = 'memory://';

/** A server PostgreSQL reached through `@prisma/adapter-pg`. */
export interface PostgresDatabaseConfig {
  readonly kind: 'postgres';
  readonly url: string;
}

/** The embedded PGlite database, reached through `pglite-prisma-adapter`. */
export interface PgliteDatabaseConfig {
  readonly kind: 'pglite';
  /** Absolute data directory, or `memory://`. */
  readonly dataDir: string;
  /** PostgreSQL's `shared_buffers` for the embedded server, e.g. `16MB` (default {@link DEFAULT_PGLITE_SHARED_BUFFERS}). */
  readonly sharedBuffers?: string;
  /** Run PGlite in a thread of its own (`TALON_PGLITE_THREAD=on`) instead of the service's main thread. */
  readonly thread?: boolean;
}

/** Which database Talon uses. */
export type DatabaseConfig = PostgresDatabaseConfig | PgliteDatabaseConfig;

/** The environment variables `parseDatabaseConfig` reads. */
export interface DatabaseEnv {
  /** `postgres://` or `postgresql://` URL; when set, PostgreSQL is used. */
  DATABASE_URL?: string;
  /** PGlite data directory (or `memory://`); wins over TALON_STATE_DIR. */
  TALON_PGLITE_DIR?: string;
  /** Talon's state directory; PGlite then lives in `<dir>/pglite`. */
  TALON_STATE_DIR?: string;
  /** PGlite's `shared_buffers` (default {@link DEFAULT_PGLITE_SHARED_BUFFERS}). */
  TALON_PGLITE_SHARED_BUFFERS?: string;
  /** `on` runs PGlite in a thread of its own; `off` (the default) in the main thread. */
  TALON_PGLITE_THREAD?: string;
}

/**
 * Chooses the database from the environment: PostgreSQL when DATABASE_URL is set, otherwise PGlite in
 * TALON_PGLITE_DIR, `<TALON_STATE_DIR>/pglite` or `.talon/state/pglite`, resolved against `cwd`.
 */
export function parseDatabaseConfig(
  env: DatabaseEnv = process.env,
  cwd: string = process.cwd(),
): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidDatabaseConfigError(
        'DATABASE_URL',
        redactUrl(url),
        'a URL like postgres://user@host:5432/db',
      );
    }
    if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
      throw new InvalidDatabaseConfigError(
        'DATABASE_URL',
        redactUrl(url),
        'a postgres:// or postgresql:// URL',
      );
    }
    return { kind: 'postgres', url };
  }
  const sharedBuffers = env.TALON_PGLITE_SHARED_BUFFERS?.trim() || DEFAULT_PGLITE_SHARED_BUFFERS;
  if (!PGLITE_SHARED_BUFFERS_PATTERN.test(sharedBuffers) || sharedBuffersKiB(sharedBuffers) < 128) {
    throw new InvalidDatabaseConfigError(
      'TALON_PGLITE_SHARED_BUFFERS',
      sharedBuffers,
      'a size of at least 128kB with a PostgreSQL unit, like 16MB',
    );
  }
  const thread = env.TALON_PGLITE_THREAD?.trim().toLowerCase() || 'off';
  if (thread !== 'on' && thread !== 'off')
    throw new InvalidDatabaseConfigError('TALON_PGLITE_THREAD', thread, 'on or off');
  return { kind: 'pglite', dataDir: pgliteDataDir(env, cwd), sharedBuffers, thread: thread === 'on' };
}

function pgliteDataDir(env: DatabaseEnv, cwd: string): string {
  const pgliteDir = env.TALON_PGLITE_DIR?.trim();
  if (pgliteDir === PGLITE_IN_MEMORY) return PGLITE_IN_MEMORY;
  if (pgliteDir) return resolve(cwd, pgliteDir);
  const stateDir = env.TALON_STATE_DIR?.trim();
  if (stateDir) return resolve(cwd, stateDir, 'pglite');
  return resolve(cwd, DEFAULT_PGLITE_DIR);
}

function sharedBuffersKiB(size: string): number {
  const unit = size.slice(-2);
  return Number(size.slice(0, -2)) * (unit === 'GB' ? 1024 * 1024 : unit === 'MB' ? 1024 : 1);
}

/** The URL with its password replaced, safe for logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}
