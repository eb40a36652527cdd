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
  await makeInPlace(
    path,
    (aside) => writeFile(aside, bytes),
    () => exists(path),
  );
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
  const isCluster = () => exists(join(path, 'PG_VERSION'));
  if (await isCluster()) return path;
  await makeInPlace(path, (aside) => createPgliteClusterInChildProcess(aside, []), isCluster);
  return path;
}

/** Makes `path` aside and renames it into place whole: a test process that loses the race uses the winner's. */
async function makeInPlace(
  path: string,
  make: (aside: string) => Promise<void>,
  placed: () => Promise<boolean>,
): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'talon-pglite-template-new-'));
  try {
    const aside = join(scratch, 'made');
    await make(aside);
    await rename(aside, path).catch(async (error: unknown) => {
      if (!(await placed())) throw error;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
