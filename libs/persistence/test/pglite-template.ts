import { createHash } from 'node:crypto';
import { access, cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgliteClusterInChildProcess } from '../src/pglite-cluster-creation.js';

/**
 * A PGlite cluster as initdb leaves it, made once per PGlite build (about 5 s) in the system's temp folder
 * and copied into each new data directory a test needs (about 0.1 s). Tests of opening, migrating and using
 * a database start from a copy; open-database.int.test.ts still creates clusters from nothing.
 */
let template: Promise<string> | undefined;

/** Fills `dataDir` (which must not exist yet) with a copy of the template cluster. */
export async function copyPgliteTemplate(dataDir: string): Promise<void> {
  template ??= ensureTemplate();
  await cp(await template, dataDir, { recursive: true });
}

async function ensureTemplate(): Promise<string> {
  const build = createHash('sha256')
    .update(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
    .digest('hex')
    .slice(0, 12);
  const path = join(tmpdir(), `talon-pglite-template-${build}`);
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
