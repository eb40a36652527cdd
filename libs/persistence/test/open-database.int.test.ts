import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { loadCommittedMigrations } from '../src/committed-migrations.js';
import { openDatabase } from '../src/create-database.js';
import { DataDirInUseError } from '../src/errors/data-dir-in-use-error.js';
import { DatabaseUnreachableError } from '../src/errors/database-unreachable-error.js';
import { IncompatibleDataDirError } from '../src/errors/incompatible-data-dir-error.js';
import { runMigrations } from '../src/migration-runner.js';
import { PGLITE_POSTGRES_MAJOR } from '../src/pglite-settings.js';
import { PgSqlExecutor } from '../src/pg-sql-executor.js';
import {
  createPostgresTestDatabase,
  TEST_POSTGRES_ADMIN_URL,
  type PostgresTestDatabase,
} from './postgres-test-database.js';
import { copyPgliteTemplate, createPgliteFromTemplate } from './pglite-template.js';
import { makeTempDir } from './temp-dir.js';

// A new PGlite cluster takes seconds to initialise on a loaded machine; jest's project-level testTimeout is not applied.
jest.setTimeout(60_000);

describe('openDatabase on PostgreSQL', () => {
  let database: PostgresTestDatabase;

  beforeAll(async () => {
    database = await createPostgresTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  it('applies each migration exactly once when several orchestrators start together', async () => {
    const migrations = await loadCommittedMigrations();
    const clients = Array.from({ length: 4 }, () => new pg.Client({ connectionString: database.url }));
    await Promise.all(clients.map((client) => client.connect()));
    try {
      const reports = await Promise.all(
        clients.map((client) => runMigrations(new PgSqlExecutor(client), migrations)),
      );
      expect(reports.flatMap((report) => report.applied).sort()).toEqual(
        migrations.map((migration) => migration.name),
      );
      const { rows } = await clients[0]!.query('SELECT count(*)::int AS n FROM "_prisma_migrations"');
      expect(rows[0].n).toBe(migrations.length);
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  });

  it('serves a pooled client that keeps working after the migration connection closed', async () => {
    const db = await openDatabase({ kind: 'postgres', url: database.url });
    try {
      const sessions = await Promise.all(
        Array.from({ length: 8 }, (_, i) => db.prisma.session.create({ data: { title: `s${i}` } })),
      );
      expect(await db.prisma.session.count()).toBe(sessions.length);
    } finally {
      await db.close();
    }
  });

  it('says what to check when nothing listens on the port', async () => {
    const opening = openDatabase({ kind: 'postgres', url: 'postgres://talon:hunter2@127.0.0.1:1/talon' });
    await expect(opening).rejects.toBeInstanceOf(DatabaseUnreachableError);
    await expect(opening).rejects.toMatchObject({ code: 'UNAVAILABLE', retryable: true });
    const error = (await opening.catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain('127.0.0.1:1');
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).toMatch(/running.*DATABASE_URL/s);
    expect(error.message).not.toContain('hunter2');
  });

  it('says so when the database does not exist', async () => {
    const url = new URL(TEST_POSTGRES_ADMIN_URL);
    url.pathname = '/talon_test_missing_database';
    const error = await openDatabase({ kind: 'postgres', url: url.toString() }).catch(
      (caught: Error) => caught,
    );
    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    expect((error as Error).message).toContain('does not exist');
  });
});

describe('openDatabase on PGlite', () => {
  let scratch: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    scratch = await makeTempDir('pglite-open');
  });

  afterAll(async () => {
    await scratch.remove();
  });

  it('embeds the PostgreSQL major version the data directory check expects', async () => {
    const db = await createPgliteFromTemplate();
    try {
      const { rows } = await db.query<{ server_version_num: string }>('SHOW server_version_num');
      expect(String(Math.floor(Number(rows[0]!.server_version_num) / 10000))).toBe(PGLITE_POSTGRES_MAJOR);
    } finally {
      await db.close();
    }
  });

  it('creates a new directory, keeps its data across reopenings, and reports the time each took', async () => {
    const dataDir = join(scratch.path, 'nested', 'state', 'pglite');
    let started = performance.now();
    const fresh = await openDatabase({ kind: 'pglite', dataDir });
    const created = await fresh.prisma.session.create({ data: { title: 'survives a restart' } });
    await fresh.close();
    const newDirMs = performance.now() - started;

    started = performance.now();
    const reopened = await openDatabase({ kind: 'pglite', dataDir });
    const existingDirMs = performance.now() - started;
    try {
      expect(reopened.migrations.applied).toEqual([]);
      expect(await reopened.prisma.session.findUnique({ where: { id: created.id } })).toMatchObject({
        title: 'survives a restart',
      });
    } finally {
      await reopened.close();
    }
    console.log(
      `PGlite open+migrate: new directory ${Math.round(newDirMs)} ms, existing directory ${Math.round(existingDirMs)} ms`,
    );
  });

  it('creates a cluster with its stock postgresql.conf and runs it with the configured buffer pool', async () => {
    const dataDir = join(scratch.path, 'buffers');
    const created = await openDatabase({ kind: 'pglite', dataDir, sharedBuffers: '8MB' });
    const shown = async (db: typeof created) =>
      (await db.prisma.$queryRawUnsafe<{ shared_buffers: string }[]>('SHOW shared_buffers'))[0]!
        .shared_buffers;
    try {
      expect(await shown(created)).toBe('8MB');
    } finally {
      await created.close();
    }
    // The setting is a start parameter: the cluster's own configuration (initdb's, hundreds of lines) stays.
    const conf = await readFile(join(dataDir, 'postgresql.conf'), 'utf8');
    expect(conf.split('\n').length).toBeGreaterThan(100);
    expect(conf).not.toMatch(/^shared_buffers\s*=\s*8MB/m);
    const reopened = await openDatabase({ kind: 'pglite', dataDir });
    try {
      expect(await shown(reopened)).toBe('16MB');
    } finally {
      await reopened.close();
    }
  });

  it('refuses a data directory written by another PostgreSQL major version', async () => {
    const dataDir = join(scratch.path, 'old');
    await mkdir(dataDir);
    await writeFile(join(dataDir, 'PG_VERSION'), '17\n');
    const opening = openDatabase({ kind: 'pglite', dataDir });
    await expect(opening).rejects.toBeInstanceOf(IncompatibleDataDirError);
    await expect(opening).rejects.toMatchObject({
      details: { found: '17', expected: PGLITE_POSTGRES_MAJOR },
    });
    await expect(opening).rejects.toThrow(/Move the directory aside/);
  });

  it('lets one process at a time open a directory, refuses a second with who holds it, and frees it on close', async () => {
    const dataDir = join(scratch.path, 'shared');
    await copyPgliteTemplate(dataDir); // what is tested is the lock, not initdb
    const first = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const started = Date.now();
      const second = openDatabase({ kind: 'pglite', dataDir });
      await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
      await expect(second).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        details: { dataDir, holderPid: process.pid, holderHost: hostname() },
      });
      await expect(second).rejects.toThrow(/already open in process \d+ on .*TALON_PGLITE_DIR/);
      // A live holder is refused after one heartbeat interval, not after the whole stale time.
      expect(Date.now() - started).toBeLessThan(25_000);
    } finally {
      await first.close();
    }
    await expect(stat(`${dataDir}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    const again = await openDatabase({ kind: 'pglite', dataDir });
    await again.close();
  }, 180_000);

  it('takes over the lock of a holder that was killed once its heartbeat is stale, whatever its pid says', async () => {
    const dataDir = join(scratch.path, 'locked');
    await copyPgliteTemplate(dataDir);
    // A holder in another process, with proper-lockfile's heartbeat, as an orchestrator holds it.
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import lockfile from 'proper-lockfile';
         await lockfile.lock(${JSON.stringify(dataDir)}, { lockfilePath: ${JSON.stringify(`${dataDir}.lock`)}, realpath: false, stale: 2000, update: 500 });
         console.log('locked'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
      await expect(
        openDatabase({ kind: 'pglite', dataDir }, { lock: { staleMs: 2000 } }),
      ).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    }
    // In a container the dead holder's pid (1) would still be alive: only the stopped heartbeat counts.
    await writeFile(`${dataDir}.lock-owner.json`, JSON.stringify({ pid: 1, host: 'old-container' }));
    const started = Date.now();
    const db = await openDatabase({ kind: 'pglite', dataDir }, { lock: { staleMs: 2000, waitMs: 20_000 } });
    try {
      console.log(
        `PGlite lock of a killed holder taken over after ${Date.now() - started} ms (stale after 2000 ms)`,
      );
      expect(JSON.parse(await readFile(`${dataDir}.lock-owner.json`, 'utf8'))).toMatchObject({
        pid: process.pid,
      });
    } finally {
      await db.close();
    }
    await expect(readFile(`${dataDir}.lock-owner.json`, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  }, 180_000);

  it('takes over at once a lock whose heartbeat stopped long ago (a container restarted after a crash)', async () => {
    const dataDir = join(scratch.path, 'abandoned');
    await copyPgliteTemplate(dataDir);
    await mkdir(`${dataDir}.lock`, { recursive: true });
    await writeFile(`${dataDir}.lock-owner.json`, JSON.stringify({ pid: 1, host: 'old-container' }));
    const longAgo = new Date(Date.now() - 120_000);
    await utimes(`${dataDir}.lock`, longAgo, longAgo);
    const db = await openDatabase({ kind: 'pglite', dataDir }, { lock: { staleMs: 5000, waitMs: 0 } });
    await db.close();
  }, 180_000);

  it('works in memory for throwaway runs', async () => {
    const db = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
    try {
      expect(db.migrations.applied).toEqual(
        (await loadCommittedMigrations()).map((migration) => migration.name),
      );
      expect(await db.prisma.session.count()).toBe(0);
    } finally {
      await db.close();
    }
  });
});
