import { createHash } from 'node:crypto';
import { access, cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { createPgliteClusterInChildProcess } from '../src/pglite-cluster-creation.js';

/**
 * A PGlite cluster as initdb leaves it, made once per PGlite build (about 5 s) in the system's temp folder
 * and copied into each new data directory a test needs (about 0.1 s); in memory, a dump of one loaded by
 * each new instance (0.5 s against 3–5 s). Tests of opening, migrating and using a database start from a
 * copy; open-database.int.test.ts still creates clusters from nothing, where creation is what it tests.
 */
let template: Promise<string> | undefined;
let dump: Promise<Uint8Array<ArrayBuffer>> | undefined;

/** A new in-memory PGlite loaded from a dump of a fresh cluster instead of running initdb. */
export async function createPgliteFromTemplate(
  options: Omit<PGliteOptions, 'dataDir'> = {},
): Promise<PGlite> {
  dump ??= ensureDump();
  return PGlite.create({ ...options, loadDataDir: new Blob([await dump]) });
}

async function ensureDump(): Promise<Uint8Array<ArrayBuffer>> {
  const path = join(tmpdir(), `talon-pglite-template-${pgliteBuild()}.tar`);
  const stored = await readFile(path).catch(() => undefined);
  if (stored) return stored;
  const fresh = await PGlite.create('memory://');
  const bytes = new Uint8Array(await (await fresh.dumpDataDir('none')).arrayBuffer());
  await fresh.close();
  // Written aside and renamed into place whole, as the cluster below.
  const scratch = await mkdtemp(join(tmpdir(), 'talon-pglite-template-new-'));
  try {
    await writeFile(join(scratch, 'dump.tar'), bytes);
    await rename(join(scratch, 'dump.tar'), path);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return bytes;
}

function pgliteBuild(): string {
  return createHash('sha256')
    .update(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
    .digest('hex')
    .slice(0, 12);
}

/** Fills `dataDir` (which must not exist yet) with a copy of the template cluster. */
export async function copyPgliteTemplate(dataDir: string): Promise<void> {
  template ??= ensureTemplate();
  await cp(await template, dataDir, { recursive: true });
}

async function ensureTemplate(): Promise<string> {
  const path = join(tmpdir(), `talon-pglite-template-${pgliteBuild()}`);
  if (await isCluster(path)) return path;
  // Made aside and renamed into place whole: a test process that loses the race uses the winner's.
  const scratch = await mkdtemp(join(tmpdir(), 'talon-pglite-template-new-'));
  try {
    await createPgliteClusterInChildProcess(join(scratch, 'data'), []);
    await rename(join(scratch, 'data'), path).catch(async (error: unknown) => {
      if (!(await isCluster(path))) throw error;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return path;
}

async function isCluster(path: string): Promise<boolean> {
  return access(join(path, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
}
