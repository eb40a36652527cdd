import { open, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { HostImportDeniedError } from './errors/host-import-denied-error.js';

function normalizePrefix(prefix: string): string {
  return prefix.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
}

function underPrefix(relativePath: string, prefixes: readonly string[]): boolean {
  const path = relativePath.split(sep).join('/');
  return prefixes
    .map(normalizePrefix)
    .some((prefix) => prefix === '' || path === prefix || path.startsWith(`${prefix}/`));
}

function inside(root: string, target: string): string | undefined {
  const rel = relative(root, target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel;
}

/**
 * Reads UTF-8 files for the `workspace-read` import: relative paths only, under an allowed prefix both as
 * written and after symlinks are resolved (realpath), inside the workspace root, and within a byte cap.
 */
export async function readWorkspaceFile(
  root: string,
  prefixes: readonly string[],
  path: string,
  maxBytes: number,
): Promise<string> {
  if (prefixes.length === 0) throw new HostImportDeniedError('workspace-read is not granted to this tool');
  if (path.includes('\0')) throw new HostImportDeniedError('path contains a NUL byte');
  if (isAbsolute(path) || /^[a-zA-Z]:/.test(path))
    throw new HostImportDeniedError('path must be relative to the workspace');
  const realRoot = await realpath(root);
  const requested = inside(realRoot, resolve(realRoot, path));
  if (!requested) throw new HostImportDeniedError('path escapes the workspace');
  if (!underPrefix(requested, prefixes))
    throw new HostImportDeniedError(`path ${requested} is outside the allowed prefixes`);
  let real: string;
  try {
    real = await realpath(resolve(realRoot, requested));
  } catch {
    throw new HostImportDeniedError(`no such file: ${requested}`);
  }
  const realRelative = inside(realRoot, real);
  if (!realRelative) throw new HostImportDeniedError('path resolves outside the workspace');
  if (!underPrefix(realRelative, prefixes))
    throw new HostImportDeniedError('path resolves outside the allowed prefixes');
  const handle = await open(real, 'r');
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new HostImportDeniedError(`${requested} is not a file`);
    if (stats.size > maxBytes)
      throw new HostImportDeniedError(`${requested} is ${stats.size} bytes, above the cap of ${maxBytes}`);
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}
